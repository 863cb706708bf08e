use crate::tui::account::update::page_size;

#[test]
fn page_size_is_1_to_100_or_empty() {
    assert_eq!(page_size(""), Ok(None));
    assert_eq!(page_size(" 25 "), Ok(Some(25)));
    assert_eq!(page_size("100"), Ok(Some(100)));
    assert!(page_size("0").is_err());
    assert!(page_size("101").is_err());
    assert!(page_size("-3").is_err());
}
