#[test]
fn a_title_cannot_carry_a_sequence() {
    assert_eq!(
        super::title_sequence("frontdesk · 3 waiting"),
        "\x1b]2;frontdesk · 3 waiting\x07"
    );
    let t = super::title_sequence("evil\x07\x1b]0;pwned\x1b\\");
    assert_eq!(t.matches('\x07').count(), 1, "{t:?}");
    assert_eq!(t.matches('\x1b').count(), 1, "{t:?}");
}

#[test]
fn osc52_encodes_the_text() {
    assert_eq!(super::osc52("hi"), "\x1b]52;c;aGk=\x07");
}
