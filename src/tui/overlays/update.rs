//! Keys on help and the palette.

use crossterm::event::KeyEvent;

use super::help::layout_for;
use crate::tui::form::{FuzzyPicker, PickItem, PickOutcome};
use crate::tui::keymap::{Action as Key, Keymap, Mode, ModeAction as M};
use crate::tui::shared::Cx;

/// The palette: every action of the key table.
pub fn palette(keys: &Keymap) -> FuzzyPicker {
    let items = keys
        .rows()
        .iter()
        .map(|b| PickItem {
            label: b.name.to_string(),
            detail: format!("{}  ({})", b.help, b.label),
            key: b.name.to_string(),
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
}

/// A key on the palette: the action it picked comes back for the root to
/// run (the palette only picks one).
pub fn palette_key(picker: &mut FuzzyPicker, keys: &Keymap, key: KeyEvent) -> Picked {
    match picker.handle_key(keys, key) {
        PickOutcome::Pending => Picked::Pending,
        PickOutcome::Cancelled => Picked::Cancelled,
        PickOutcome::Chosen(name) => Picked::Run(keys.action_named(&name)),
    }
}

/// Pasted text typed into a picker's query (control characters dropped).
pub fn paste_into(picker: &mut FuzzyPicker, text: &str) {
    let typed: String = text.chars().filter(|c| !c.is_control()).collect();
    if !typed.is_empty() {
        picker.handle_paste(&typed);
    }
}
