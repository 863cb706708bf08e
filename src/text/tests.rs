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
fn c1_and_bidi_controls_become_visible_placeholders() {
    assert_eq!(sanitize("x\u{9b}31my\u{202e}z", false), "x<U+009B>31my<U+202E>z");
    for c in [
        '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    ] {
        assert_eq!(sanitize(&format!("a{c}b"), false), format!("a<U+{:04X}>b", c as u32));
    }
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

#[test]
fn invisible_characters_show_as_placeholders() {
    let cases = [
        ("Ana\u{200b}", "Ana<U+200B>"),
        ("An\u{2060}a", "An<U+2060>a"),
        ("A\u{200c}na", "A<U+200C>na"),
        ("A\u{200d}na", "A<U+200D>na"),
        ("An\u{ad}a", "An<U+00AD>a"),
        ("\u{feff}Ana", "<U+FEFF>Ana"),
        ("Ana\u{200e}", "Ana<U+200E>"),
        ("Ana\u{200f}", "Ana<U+200F>"),
        ("Ana\u{61c}", "Ana<U+061C>"),
        ("Ana\u{e0041}\u{e0042}", "Ana<U+E0041><U+E0042>"),
        ("\u{e0001}en", "<U+E0001>en"),
        ("\u{fe0f}Ana", "<U+FE0F>Ana"),
        ("Ana \u{fe0f}", "Ana <U+FE0F>"),
        ("❤\u{fe0f}\u{fe0f}", "❤\u{fe0f}<U+FE0F>"),
        ("A\u{2061}na", "A<U+2061>na"),
        ("ㅤ", "<U+3164>"),
        ("a\u{2028}b", "a<U+2028>b"),
        ("🏴\u{e0067}\u{e0062}", "🏴<U+E0067><U+E0062>"),
    ];
    for (raw, shown) in cases {
        assert_eq!(sanitize(raw, false), shown, "{raw:?}");
        assert_eq!(sanitize_line(raw), shown, "{raw:?}");
    }
    // Two names that look alike no longer read alike.
    assert_ne!(clean_line("Ana"), clean_line("An\u{200b}a"));
}

#[test]
fn characters_doing_a_visible_job_are_kept() {
    let kept = [
        "👩\u{200d}💻",
        "👨\u{200d}👩\u{200d}👧\u{200d}👦",
        "❤\u{fe0f}",
        "❤\u{fe0f}\u{200d}🔥",
        "1\u{fe0f}\u{20e3}",
        "👍🏽",
        "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}",
        "e\u{301}\u{302}",
        "مرحبا שלום",
        "می\u{200c}خواهم",
        "क्\u{200d}ष",
        "葛\u{e0100}",
        "ᠠ\u{180b}",
    ];
    for s in kept {
        assert_eq!(sanitize(s, false), s);
        // For cells, emoji are written as every terminal draws them.
        assert_eq!(clean_line(s), plain_emoji(s));
    }
}

#[test]
fn sanitizing_twice_changes_nothing_more() {
    let s = "a\u{1b}[2J\u{200b}\u{202e}\u{9b}b\u{e0041}\n";
    let once = sanitize_line(s);
    assert_eq!(sanitize_line(&once), once);
}

/// What ratatui draws for `s`: the column after its last cell.
fn drawn(s: &str) -> usize {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    let mut b = Buffer::empty(Rect::new(0, 0, 200, 1));
    let (x, _) = b.set_stringn(0, 0, s, 200, ratatui::style::Style::default());
    usize::from(x)
}

const GRAPHEMES: &[(&str, usize)] = &[
    ("你好", 4),
    ("한국어", 6),
    // Without joiners, selectors and modifiers: as tmux 3.3 draws them.
    ("👩\u{200d}💻", 4),
    ("👨\u{200d}👩\u{200d}👧\u{200d}👦", 8),
    ("❤\u{fe0f}", 1),
    ("❤", 1),
    ("👍🏽", 2),
    ("🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}", 2),
    ("🇯🇵", 2),
    ("e\u{301}", 1),
    ("ｶﾞ", 3),
    ("Zoë", 3),
];

#[test]
fn width_is_what_is_drawn_grapheme_by_grapheme() {
    for &(raw, cols) in GRAPHEMES {
        let s = clean_line(raw);
        assert_eq!(width(&s), cols, "{raw:?} as {s:?}");
        assert_eq!(drawn(&s), cols, "{raw:?} as {s:?} is drawn in another width");
    }
    assert_eq!(clean_line("🇯🇵"), "JP");
}

#[test]
fn truncate_cuts_whole_zwj_vs16_and_tag_sequences() {
    let zwj = "👩\u{200d}💻";
    assert_eq!(truncate(&zwj.repeat(3), 5), format!("{zwj}{zwj}…"));
    assert_eq!(truncate(&zwj.repeat(3), 4), format!("{zwj}…"));
    let heart = "❤\u{fe0f}";
    assert_eq!(truncate(&heart.repeat(2), 3), format!("{heart}…"));
    let england = "🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}";
    assert_eq!(truncate(&format!("{england} England"), 4), format!("{england} …"));
    for &(raw, _) in GRAPHEMES {
        let s = clean_line(&raw.repeat(5));
        for max in 0..12 {
            let t = truncate(&s, max);
            assert!(width(&t) <= max, "{s:?} cut to {max}: {t:?}");
            assert!(drawn(&t) <= max, "{s:?} cut to {max} draws wider: {t:?}");
        }
    }
}

#[test]
fn emoji_sequences_are_written_as_every_terminal_draws_them() {
    assert_eq!(clean_line("👩\u{200d}💻"), "👩💻");
    assert_eq!(clean_line("👨\u{200d}👩\u{200d}👧\u{200d}👦"), "👨👩👧👦");
    assert_eq!(clean_line("❤\u{fe0f}\u{200d}🔥"), "❤🔥");
    assert_eq!(clean_line("👍🏽 ok"), "👍 ok");
    // A script's joiner does a job and stays; a lone one still shows.
    assert_eq!(clean_line("क्\u{200d}ष"), "क्\u{200d}ष");
    assert_eq!(clean_line("A\u{200d}na"), "A<U+200D>na");
    // The name from issue 38: 2 columns for each CJK ideograph and emoji.
    let name = clean_line("龍之介 山田👩\u{200d}💻🇯🇵家族👨\u{200d}👩\u{200d}👧\u{200d}👦テスト");
    assert_eq!(name, "龍之介 山田👩💻JP家族👨👩👧👦テスト");
    assert_eq!(width(&name), 11 + 4 + 2 + 4 + 8 + 6);
    assert_eq!(drawn(&name), width(&name));
}
