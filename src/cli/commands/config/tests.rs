#[test]
fn the_mask_shows_no_more_than_two_characters() {
    assert_eq!(super::mask("abcdefghijkl"), "…kl (12 characters)");
    assert_eq!(super::mask("short"), "set (5 characters)");
}
