use super::*;
use crate::text::width;

#[test]
fn wraps_by_width_and_keeps_wide_graphemes_whole() {
    assert_eq!(wrap("hello world again", 11), vec!["hello world", "again"]);
    let cjk = wrap("你好世界你好", 5);
    assert!(cjk.iter().all(|l| width(l) <= 5), "{cjk:?}");
    assert_eq!(cjk.concat(), "你好世界你好");
    let emoji = wrap("👍🏽👍🏽👍🏽", 4);
    assert_eq!(emoji, vec!["👍🏽👍🏽", "👍🏽"]);
    assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
}

#[test]
fn a_new_width_lays_out_again_and_the_same_width_does_not() {
    let m = Message {
        uuid: Some("m1".into()),
        text: "one two three four five six seven".into(),
        created_at: None,
        status: MessageStatus::Received,
        channel: String::new(),
        from: String::new(),
        to: String::new(),
    };
    let cache = Layout::default();
    let narrow = cache.with_body(&m, 16, |l| l.to_vec());
    assert_eq!(cache.with_body(&m, 16, |l| l.len()), narrow.len());
    assert_eq!(cache.wrapped(), 1, "the second look-up must come from the cache");
    let wide = cache.with_body(&m, 60, |l| l.to_vec());
    assert_eq!(cache.wrapped(), 2);
    assert!(wide.len() < narrow.len(), "{wide:?} vs {narrow:?}");
}
