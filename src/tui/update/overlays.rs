//! Keys while an overlay is open: help, palette, forms, pickers.

use crossterm::event::{KeyCode, KeyEvent};

use crate::tui::keymap::{Mode, ModeAction as M};

use crate::tui::effect::Effect;
use crate::tui::form::{FormOutcome, FuzzyPicker, PickItem, PickOutcome};
use crate::tui::keymap::{self, Action as Key, action_named};
use crate::tui::model::{FormKind, Model, Overlay, ToastKind};

use super::call::call;
use super::{actions, many};

/// The palette: every action of the key table.
pub fn palette(keys: &keymap::Keymap) -> FuzzyPicker {
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

pub(crate) fn open_palette(model: &mut Model) {
    model.overlay = Some(Overlay::Palette(palette(&model.keys)));
}

/// A key on the open overlay; the palette's choice comes back as the
/// action to run (the caller runs actions, the overlay only picks one).
pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> Option<keymap::Action> {
    if super::recheck::key(model, &key, fx) {
        return None;
    }
    let pressed = model.keys.action_for(&key);
    let in_overlay = model.keys.mode_action_for(Mode::Overlay, &key);
    let overlay = model.overlay.as_mut()?;
    match overlay {
        // The list's motions scroll help, whatever keys they are bound
        // to; Cancel, Quit and Help close it (and `overlay.close`).
        Overlay::Help { scroll } => match (in_overlay, pressed) {
            (Some(M::Close), _) | (None, Some(Key::Cancel | Key::Quit | Key::Help)) => model.overlay = None,
            (mode, action) => {
                let layout = crate::tui::view::help::layout_for(&model.keys, model.width, model.height);
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
        },
        Overlay::Palette(picker) => match picker.handle_key(key) {
            PickOutcome::Pending => {}
            PickOutcome::Cancelled => model.overlay = None,
            PickOutcome::Chosen(name) => {
                model.overlay = None;
                return action_named(&name);
            }
        },
        Overlay::CustomStatus(picker) => match picker.handle_key(key) {
            PickOutcome::Pending => {}
            PickOutcome::Cancelled => model.overlay = None,
            PickOutcome::Chosen(id) => {
                model.overlay = None;
                call!(model, fx, details, Effect::Details, |st, _cx, out| {
                    crate::tui::details::set_custom_status(st, out, id)
                });
            }
        },
        Overlay::Confirm(_) => match model.keys.mode_action_for(Mode::Confirm, &key) {
            Some(M::Yes) => {
                if let Some(Overlay::Confirm(c)) = model.overlay.take() {
                    many::confirmed(model, *c, fx);
                }
            }
            Some(M::No) => {
                model.overlay = None;
                let now = model.now;
                model.status.push(ToastKind::Info, "nothing done", now);
            }
            _ => {}
        },
        // The list's motions scroll the failures; Repeat retries them.
        Overlay::Summary(s) => match (pressed, in_overlay) {
            (_, Some(M::Close)) => model.overlay = None,
            (Some(Key::MoveDown), _) => s.scroll = s.scroll.saturating_add(1).min(s.max_scroll(model.height)),
            (Some(Key::MoveUp), _) => s.scroll = s.scroll.saturating_sub(1),
            (Some(Key::Top), _) => s.scroll = 0,
            (Some(Key::Repeat), _) => {
                model.overlay = None;
                many::repeat(model, fx);
            }
            (Some(Key::Cancel | Key::Quit), _) => model.overlay = None,
            // The run's undo is offered at once, over its account.
            (Some(Key::Undo), _) => {
                model.overlay = None;
                super::undo::undo_last(model, fx);
            }
            (Some(Key::History), _) => super::undo::open_history(model),
            _ => {}
        },
        Overlay::Form { kind, uuid, form, .. } => match form.handle_key(key) {
            FormOutcome::Pending => {}
            FormOutcome::Cancelled => {
                // A form whose save failed keeps what was typed since.
                let k = (uuid.clone(), *kind);
                if *kind != FormKind::Filter && model.drafts.contains_key(&k) {
                    model.drafts.insert(k, form.clone());
                }
                model.overlay = None;
            }
            FormOutcome::Submitted => actions::submit(model, fx),
        },
        Overlay::History { .. } => super::undo::history_key(model, key, fx),
    }
    None
}

pub(crate) fn paste(model: &mut Model, text: &str, fx: &mut Vec<Effect>) {
    match model.overlay.as_mut() {
        Some(Overlay::Form { form, .. }) => form.handle_paste(text),
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => {
            for c in text.chars().filter(|c| !c.is_control()) {
                p.handle_key(KeyEvent::from(KeyCode::Char(c)));
            }
        }
        Some(Overlay::Help { .. } | Overlay::History { .. } | Overlay::Confirm(_) | Overlay::Summary(_)) => {}
        None => {
            super::search::paste(model, text, fx);
        }
    }
}
