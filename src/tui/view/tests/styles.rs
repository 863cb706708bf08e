//! Styles on screen, cell by cell: the snapshots check text only, these
//! catch a colour or emphasis regression (selection, unread marks, errors,
//! sent / received / note messages, warnings).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier, Style};

use super::rich;
use crate::api::ApiError;
use crate::tui::account::AccountEffect;
use crate::tui::account::AccountMsg;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::{Model, ToastKind};
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::update;

/// The default colour theme.
fn color() -> Theme {
    Theme::dark()
}

fn draw_with(m: &Model, theme: &Theme) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, theme)).unwrap();
    t
}

/// The style of the cell where `text` first starts on screen, row by row.
fn style_at(t: &Terminal<TestBackend>, text: &str) -> Style {
    let buf = t.backend().buffer();
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let mut row = String::new();
        let mut starts = Vec::new();
        for x in area.left()..area.right() {
            starts.push((row.len(), x));
            row.push_str(buf[(x, y)].symbol());
        }
        if let Some(at) = row.find(text)
            && let Some((_, x)) = starts.iter().find(|(b, _)| *b == at)
        {
            return buf[(*x, y)].style();
        }
    }
    panic!("{text:?} is not on screen:\n{}", t.backend());
}

fn has(style: Style, m: Modifier) -> bool {
    style.add_modifier.contains(m)
}

#[test]
fn the_selected_row_is_reversed_and_the_others_are_not() {
    for theme in [color(), Theme::plain()] {
        let m = rich(160, 48);
        let t = draw_with(&m, &theme);
        assert!(has(style_at(&t, "▸"), Modifier::REVERSED), "{theme:?}");
        assert!(
            has(style_at(&t, "Ana Souza         messagin"), Modifier::REVERSED),
            "{theme:?}"
        );
        assert!(
            !has(style_at(&t, "Bruce      instagram"), Modifier::REVERSED),
            "{theme:?}"
        );
    }
}

#[test]
fn new_message_marks_and_error_toasts_stand_out() {
    let mut m = rich(160, 48);
    m.status.push(ToastKind::Error, "could not close: boom", now());
    let t = draw_with(&m, &color());
    let mark = style_at(&t, "●");
    assert_eq!(mark.fg, Some(Color::Magenta));
    assert!(has(mark, Modifier::BOLD));
    let toast = style_at(&t, "could not close");
    assert_eq!(toast.fg, Some(Color::Red));
    assert!(has(toast, Modifier::BOLD));
}

#[test]
fn sent_received_and_notes_look_different_in_the_thread() {
    let m = rich(160, 48);
    let t = draw_with(&m, &color());
    assert_eq!(style_at(&t, "Sure, let me").fg, Some(Color::Blue), "sent");
    let received = style_at(&t, "Hello! I ordered").fg;
    assert!(matches!(received, None | Some(Color::Reset)), "received: {received:?}");
    let note = style_at(&t, "Internal:");
    assert_eq!(note.fg, Some(Color::Yellow), "note");
    assert!(has(note, Modifier::ITALIC));
}

#[test]
fn an_outdated_bot_is_a_warning() {
    let mut m = rich(160, 48);
    let b = m.details.bot.bot.as_mut().unwrap();
    b.version = Some(2);
    b.latest_bot_version = Some(false);
    let t = draw_with(&m, &color());
    assert_eq!(style_at(&t, "v2 outdated").fg, Some(Color::Yellow));
    assert_eq!(style_at(&t, "● running").fg, Some(Color::Green));
}

#[test]
fn the_account_overlay_shows_errors_in_red_and_the_selection_reversed() {
    let mut m = model_with(3, 160, 48);
    let fx = update(&mut m, key('A'));
    let Some(Effect::Account(AccountEffect::FetchTemplates { id })) = fx.first() else {
        panic!("{fx:?}")
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id: *id,
            result: Err(ApiError::NotOffered {
                what: "templates".into(),
            }),
        }),
    );
    let t = draw_with(&m, &color());
    let e = style_at(&t, "✗ this server does not offer templates");
    assert_eq!(e.fg, Some(Color::Red));
    assert!(has(e, Modifier::BOLD));
    assert!(
        has(style_at(&t, "[1 Templates]"), Modifier::REVERSED),
        "the current tab"
    );
}
