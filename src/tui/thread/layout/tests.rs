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
        sent_by: None,
        rich: Default::default(),
    };
    let cache = Layout::default();
    let narrow = cache.with_body(&m, 16, |l| l.to_vec());
    assert_eq!(cache.with_body(&m, 16, |l| l.len()), narrow.len());
    assert_eq!(cache.wrapped(), 1, "the second look-up must come from the cache");
    let wide = cache.with_body(&m, 60, |l| l.to_vec());
    assert_eq!(cache.wrapped(), 2);
    assert!(wide.len() < narrow.len(), "{wide:?} vs {narrow:?}");
}

#[test]
fn a_sent_message_names_the_hubs_agent_or_you() {
    let mut m = Message {
        uuid: Some("m1".into()),
        text: "hi".into(),
        created_at: None,
        status: MessageStatus::Sent,
        channel: String::new(),
        from: "+100".into(),
        to: String::new(),
        sent_by: None,
        rich: Default::default(),
    };
    assert_eq!(header(&m, 60, None, None, false, Some("dana")), " +100 ›");
    m.sent_by = Some("lee".into());
    assert_eq!(header(&m, 60, None, None, false, Some("dana")), " lee ›");
    assert_eq!(header(&m, 60, None, None, false, None), " lee ›");
    m.sent_by = Some("dana".into());
    assert_eq!(header(&m, 60, None, None, false, Some("dana")), " you ›");
    m.sent_by = Some("\u{1b}]0;evil\u{7}".into());
    assert!(!header(&m, 60, None, None, false, None).contains('\u{1b}'));
    // This session's own send keeps its delivery mark.
    assert_eq!(header(&m, 60, None, Some("✓"), false, None), " you › ✓");
}
