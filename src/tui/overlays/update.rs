//! Keys on help and the palette.

use crossterm::event::KeyEvent;

use super::help::layout_for;
use crate::tui::form::{FuzzyPicker, PickItem, PickOutcome};
use crate::tui::keymap::{Action as Key, Keymap, Mode, ModeAction as M};
use crate::tui::shared::Cx;

/// The composer's actions the palette offers: chosen, they open the
/// composer on the selected contact first.
const COMPOSE_ACTIONS: [M; 3] = [M::Editor, M::Snippet, M::Templates];

/// The palette: every action of the key table, and the composer's.
pub fn palette(keys: &Keymap) -> FuzzyPicker {
    let compose = keys
        .mode_rows(Mode::Compose)
        .iter()
        .filter(|r| COMPOSE_ACTIONS.contains(&r.action))
        .map(|b| (b.name.to_string(), format!("{}  ({}, composer)", b.help, b.label)));
    let items = keys
        .rows()
        .iter()
        .map(|b| (b.name.to_string(), format!("{}  ({})", b.help, b.label)))
        .chain(compose)
        .map(|(name, detail)| PickItem {
            label: name.clone(),
            detail,
            key: name,
        })
        .collect();
    FuzzyPicker::new("Command palette", items)
}

/// A key on help. The list's motions scroll it, whatever keys they are
/// bound to; Cancel, Quit and Help close it (and `overlay.close`): then
/// it answers `true`.
pub fn help_key(st: &mut u16, cx: &Cx, key: &KeyEvent) -> bool {
    let pressed = cx.keys.action_for(key);
    let in_overlay = cx.keys.mode_action_for(Mode::Overlay, key);
    let scroll = st;
    match (in_overlay, pressed) {
        (Some(M::Close), _) | (None, Some(Key::Cancel | Key::Quit | Key::Help)) => return true,
        (mode, action) => {
            let layout = layout_for(cx.keys, cx.width, cx.height);
            let page = layout.visible.saturating_sub(1).max(1) as u16;
            *scroll = match (mode, action) {
                (Some(M::PageDown), _) | (None, Some(Key::PageDown)) => scroll.saturating_add(page),
                (Some(_), _) => *scroll,
                (None, Some(Key::MoveDown)) => scroll.saturating_add(1),
                (None, Some(Key::MoveUp)) => scroll.saturating_sub(1),
                (None, Some(Key::PageUp)) => scroll.saturating_sub(page),
                (None, Some(Key::Top)) => 0,
                (None, Some(Key::Bottom)) => layout.max_scroll(),
                _ => *scroll,
            }
            .min(layout.max_scroll());
        }
    }
    false
}

/// What a key on the palette (or a picker) came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Picked {
    /// Still open.
    Pending,
    /// Closed without a choice.
    Cancelled,
    /// Closed on a choice: the action to run, when it names one.
    Run(Option<Key>),
    /// Closed on a composer action: the root opens the composer and runs it.
    Compose(M),
}

/// A key on the palette: the action it picked comes back for the root to
/// run (the palette only picks one).
pub fn palette_key(picker: &mut FuzzyPicker, keys: &Keymap, key: KeyEvent) -> Picked {
    match picker.handle_key(keys, key) {
        PickOutcome::Pending => Picked::Pending,
        PickOutcome::Cancelled => Picked::Cancelled,
        PickOutcome::Chosen(name) => match keys
            .mode_rows(Mode::Compose)
            .iter()
            .find(|r| r.name == name && COMPOSE_ACTIONS.contains(&r.action))
        {
            Some(row) => Picked::Compose(row.action),
            None => Picked::Run(keys.action_named(&name)),
        },
    }
}

/// Pasted text typed into a picker's query (control characters dropped).
pub fn paste_into(picker: &mut FuzzyPicker, text: &str) {
    let typed: String = text.chars().filter(|c| !c.is_control()).collect();
    if !typed.is_empty() {
        picker.handle_paste(&typed);
    }
}
