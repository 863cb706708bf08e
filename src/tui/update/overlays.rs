//! Keys while an overlay is open: help, palette, forms, pickers.

use crossterm::event::KeyEvent;

use crate::tui::keymap::{Mode, ModeAction as M};

use super::call::call;
use crate::tui::effect::Effect;
use crate::tui::form::{FormOutcome, PickOutcome};
use crate::tui::keymap::{self, Action as Key};
use crate::tui::model::{FormKind, Model, Overlay, ToastKind};
use crate::tui::overlays::{self, Picked};

use super::{actions, many};

pub(crate) fn open_palette(model: &mut Model) {
    model.overlay = Some(Overlay::Palette(overlays::palette(&model.keys)));
}

/// A composer action from the palette: the composer opens on the
/// selected contact (when it is not open), then the action runs.
fn compose_action(model: &mut Model, action: M, fx: &mut Vec<Effect>) {
    if !model.compose.is_open() {
        super::select::show_selected(model, fx);
        call!(model, fx, compose, Effect::Compose, |st, cx, out| {
            crate::tui::compose::open(st, cx, out)
        });
    }
    call!(model, fx, compose, Effect::Compose, |st, cx, out| {
        crate::tui::compose::run_action(st, cx, out, action)
    });
}

/// A key on the open overlay; the palette's choice comes back as the
/// action to run (the caller runs actions, the overlay only picks one).
pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> Option<keymap::Action> {
    if super::recheck::key(model, &key, fx) {
        return None;
    }
    let pressed = model.keys.action_for(&key);
    let in_overlay = model.keys.mode_action_for(Mode::Overlay, &key);
    if matches!(model.overlay, Some(Overlay::Help { .. })) {
        let close = call!(model, fx, overlay, never, |st, cx, _out| match st {
            Some(Overlay::Help { scroll }) => overlays::help_key(scroll, cx, &key),
            _ => false,
        });
        if close {
            model.overlay = None;
        }
        return None;
    }
    let overlay = model.overlay.as_mut()?;
    match overlay {
        Overlay::Help { .. } => {}
        Overlay::Palette(picker) => match overlays::palette_key(picker, &model.keys, key) {
            Picked::Pending => {}
            Picked::Cancelled => model.overlay = None,
            Picked::Run(action) => {
                model.overlay = None;
                return action;
            }
            Picked::Compose(action) => {
                model.overlay = None;
                compose_action(model, action, fx);
            }
        },
        Overlay::CustomStatus(picker) => match picker.handle_key(&model.keys, key) {
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
            (Some(Key::History), _) => super::undo::open_history(model, fx),
            _ => {}
        },
        Overlay::Form { kind, uuid, form, .. } => match form.handle_key(&model.keys, key) {
            FormOutcome::Pending => {}
            FormOutcome::Cancelled => {
                // A form whose save failed keeps what was typed since.
                let k = (uuid.clone(), *kind);
                if *kind != FormKind::Filter && model.act.drafts.contains_key(&k) {
                    model.act.drafts.insert(k, form.clone());
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
        Some(Overlay::Palette(p)) | Some(Overlay::CustomStatus(p)) => overlays::paste_into(p, text),
        Some(Overlay::Help { .. } | Overlay::History { .. } | Overlay::Confirm(_) | Overlay::Summary(_)) => {}
        None => {
            super::search::paste(model, text, fx);
        }
    }
}

/// The effects of a part that has none.
fn never(n: std::convert::Infallible) -> Effect {
    match n {}
}
