//! Themes: each one's screen at 80x24 with its styles, mono's meaning
//! without colour, theme files and NO_COLOR.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};

use super::*;
use crate::tui::fixtures::{model_with, now};

/// The inbox with a selection, a new-message mark and an error toast.
fn screen(theme: &Theme) -> String {
    let mut m = model_with(8, 80, 24);
    m.list.paging.loading = None;
    let c3 = m.list.store.get(3).unwrap().uuid.to_string();
    m.list.set_seen(&c3, now() - chrono::Duration::days(1));
    m.status
        .push(crate::tui::model::ToastKind::Error, "could not reach the server", now());
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| crate::tui::view::view(&m, f, theme)).unwrap();
    format!("{:?}", t.backend().buffer())
}

#[test]
fn each_theme_at_80x24_with_its_styles() {
    for name in BUILT_IN {
        let theme = Theme::load(Some(name), false).unwrap();
        insta::assert_snapshot!(format!("theme_{name}_80x24"), screen(&theme));
    }
}

#[test]
fn themes_differ_where_it_matters() {
    let shots: Vec<String> = BUILT_IN
        .iter()
        .map(|n| screen(&Theme::load(Some(n), false).unwrap()))
        .collect();
    for i in 0..shots.len() {
        for j in i + 1..shots.len() {
            assert_ne!(shots[i], shots[j], "{} and {} look the same", BUILT_IN[i], BUILT_IN[j]);
        }
    }
}

#[test]
fn mono_marks_everything_without_colour() {
    let t = Theme::mono();
    for s in t.clone().slots() {
        assert_eq!((s.fg, s.bg), (None, None), "mono has no colour");
    }
    let plain = t.normal();
    for (what, s) in [
        ("selection", t.selected()),
        ("unread", t.unread()),
        ("error", t.error()),
        ("note", t.note()),
        ("focused border", t.border_focused()),
    ] {
        assert_ne!(s, plain, "{what} looks like plain text in mono");
    }
    assert_ne!(t.selected(), t.unread(), "a selected row and an unread mark differ");
    assert_ne!(t.note(), t.unread());
}

#[test]
fn no_color_strips_every_theme() {
    for name in BUILT_IN {
        let mut t = Theme::load(Some(name), true).unwrap();
        assert!(t.slots().iter().all(|s| s.fg.is_none() && s.bg.is_none()), "{name}");
    }
    assert_eq!(Theme::load(None, true).unwrap(), Theme::mono());
    assert_eq!(Theme::load(None, false).unwrap(), Theme::dark());
}

#[test]
fn a_theme_file_restyles_named_styles() {
    let t = from_text(
        "base = \"light\"\n[styles]\naccent = { fg = \"#ff8700\", bold = true }\nselected = { bg = \"yellow\", fg = \"black\" }\n",
        "mine.toml",
    )
    .unwrap();
    assert_eq!(t.accent().fg, Some(Color::Rgb(0xff, 0x87, 0)));
    assert!(t.accent().add_modifier.contains(Modifier::BOLD));
    assert_eq!(t.selected().bg, Some(Color::Yellow));
    assert_eq!(t.unread(), Theme::light().unread(), "the rest comes from the base");

    for (text, problem) in [
        ("[styles]\nsparkle = { fg = \"red\" }\n", "unknown style \"sparkle\""),
        (
            "[styles]\naccent = { fg = \"reddish\" }\n",
            "\"reddish\" is not a colour",
        ),
        ("base = \"neon\"\n", "base \"neon\""),
        ("\n[styles]\naccent = { blink = true }\n", "mine.toml line 3"),
    ] {
        let e = from_text(text, "mine.toml").unwrap_err();
        assert!(e.contains(problem) && e.starts_with("mine.toml"), "{e}");
    }
    let e = Theme::load(Some("solarized"), false).unwrap_err();
    assert!(e.contains("dark, light, high-contrast, mono"), "{e}");
    let e = Theme::load(Some("/nonexistent/theme.toml"), false).unwrap_err();
    assert!(e.contains("cannot be read"), "{e}");
    // The path came from the config file: it reaches the toast inert.
    let e = Theme::load(Some("/nonexistent/\u{1b}[2J\u{202e}x.toml"), false).unwrap_err();
    assert!(!e.contains('\u{1b}') && !e.contains('\u{202e}'), "{e:?}");
}
