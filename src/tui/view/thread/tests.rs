use super::*;

#[test]
fn the_composer_wraps_like_the_thread() {
    assert_eq!(wrap("hello world again", 11), vec!["hello world", "again"]);
}
