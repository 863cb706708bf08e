use super::*;

#[test]
fn escape_sequences_are_made_visible_and_inert() {
    let s = sanitize("a\u{1b}[2Jb\u{1b}]52;c;aGk=\u{7}c", false);
    assert!(!s.contains('\u{1b}'));
    assert!(!s.contains('\u{7}'));
    assert_eq!(s, "a␛[2Jb␛]52;c;aGk=␇c");
}

#[test]
fn clean_text_is_borrowed() {
    assert!(matches!(sanitize("héllo 你好 👋 مرحبا", false), Cow::Borrowed(_)));
}

#[test]
fn newlines_kept_only_when_asked() {
    assert_eq!(sanitize("a\r\nb", true), "a\nb");
    assert_eq!(sanitize("a\nb", false), "a␊b");
    assert_eq!(sanitize_line("a\nb"), "a⏎ b");
}

#[test]
fn c1_and_bidi_overrides_are_replaced() {
    assert_eq!(sanitize("x\u{9b}31my\u{202e}z", false), "x�31my�z");
}

#[test]
fn flags_become_letters() {
    assert_eq!(plain_flags("ship to 🇯🇵 and 🇧🇷"), "ship to JP and BR");
    assert!(matches!(plain_flags("no flags 👍🏽"), Cow::Borrowed(_)));
}

#[test]
fn truncate_respects_wide_graphemes() {
    assert_eq!(truncate("你好世界", 5), "你好…");
    assert_eq!(width(&truncate("👍🏽👍🏽👍🏽", 4)), 3);
    assert_eq!(truncate("short", 10), "short");
}
