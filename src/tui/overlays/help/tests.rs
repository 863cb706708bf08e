use super::*;

#[test]
fn a_row_too_wide_loses_the_end_of_its_help_to_an_ellipsis_never_the_name() {
    let (l, h, n) = fit_row("Enter m", "A team's members and more words", "account.members", 7, 50);
    assert_eq!(l, " Enter m  ");
    assert!(h.ends_with('…'), "{h}");
    assert_eq!(n, "  account.members");
    assert!(width(&l) + width(&h) + width(&n) <= 50);
    let (_, h, n) = fit_row("j", "Next contact", "next", 1, 40);
    assert_eq!((h.as_str(), n.as_str()), ("Next contact", "  next"));
}

#[test]
fn one_column_scrolls_when_the_rows_outnumber_the_lines() {
    let l = HelpLayout::new(Rect::new(0, 0, 80, 24), 60, 70);
    assert_eq!((l.columns, l.visible, l.max_scroll()), (1, 22, 38));
    let l = HelpLayout::new(Rect::new(0, 0, 160, 48), 60, 70);
    assert_eq!((l.columns, l.per_column, l.max_scroll()), (2, 30, 0));
    let l = HelpLayout::new(Rect::new(0, 0, 160, 48), 20, 70);
    assert_eq!((l.columns, l.max_scroll()), (1, 0), "one column when it fits");
}

fn screen(w: u16, h: u16, scroll: u16) -> String {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    t.draw(|f| render(&Keymap::defaults(), f, f.area(), scroll, &Theme::plain()))
        .unwrap();
    let b = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| b[(x, y)].symbol().to_string()).collect::<String>() + "\n")
        .collect()
}

#[test]
fn at_80x24_the_help_scrolls_to_its_last_row_and_says_which_way_there_is_more() {
    let max = layout_for(&Keymap::defaults(), 80, 24).max_scroll();
    assert!(max > 0, "the rows outnumber 22 lines");
    let top = screen(80, 24, 0);
    assert!(top.contains("more ↓") && !top.contains("↑ more"), "{top}");
    assert!(top.contains("Next contact / scroll down  next"), "whole rows: {top}");
    let end = screen(80, 24, u16::MAX);
    assert!(end.contains("↑ more") && !end.contains("more ↓"), "{end}");
    assert!(end.contains("New contact: was it made?  form.recheck"), "{end}");
}

#[test]
fn at_160x48_every_row_shows_without_scrolling() {
    assert_eq!(layout_for(&Keymap::defaults(), 160, 48).max_scroll(), 0);
    let s = screen(160, 48, 0);
    assert!(!s.contains("more"), "{s}");
    for r in help_rows(&Keymap::defaults()) {
        let whole = match r {
            HelpRow::Key { help, name, .. } => format!("{help}  {name}"),
            HelpRow::Heading(h) => h.to_string(),
        };
        assert!(s.contains(&whole), "{whole} uncut: {s}");
    }
}

#[test]
fn a_wide_or_invisible_key_label_keeps_the_help_column_in_place() {
    // `[keys]` can bind any one character: the label is outside text.
    for label in ["j", "你", "👩\u{200d}💻", "é"] {
        let (l, _, _) = fit_row(label, "Next contact", "next", 2, 60);
        assert_eq!(width(&l), 2 + 3, "{label:?} gives {l:?}");
    }
    let (l, _, _) = fit_row("\u{202e}", "Next contact", "next", 8, 60);
    assert_eq!(l, " <U+202E>  ");
}
