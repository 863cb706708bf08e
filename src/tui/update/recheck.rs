//! When a create may have been carried out although it failed (a 5xx, or
//! the connection broke after sending), the new-contact form says so and
//! offers Ctrl-F: look among the newest contacts for one whose phone number
//! is the identifier typed, before sending it again. The reference API has
//! no search by identifier, so the runner walks the first pages.

use crossterm::event::KeyEvent;

use crate::api::{ApiError, Contact};
use crate::tui::effect::Effect;
use crate::tui::form::FormValue;
use crate::tui::keymap::{Mode, ModeAction};
use crate::tui::model::{FormKind, Model, Overlay, ToastKind};
use crate::tui::msg::{ReqId, WriteKind};

/// Whether a failed create may still have been carried out: the client
/// says so (`ApiError::MaybeApplied`: a 5xx, or the connection broke after
/// the never-retried POST was sent).
pub(crate) fn may_have_applied(err: &ApiError) -> bool {
    err.may_have_applied()
}

/// The line under the form after such a failure.
pub(crate) fn offer(err: &ApiError) -> String {
    let cause = match err {
        ApiError::MaybeApplied { cause } => cause.as_ref(),
        other => other,
    };
    format!("{cause} · it may have been created anyway: Ctrl-F looks for it before you send it again")
}

/// Ctrl-F in the new-contact form after a failure that may have been
/// applied; false when the key is not for this.
pub(crate) fn key(model: &mut Model, key: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
    if model.keys.mode_action_for(Mode::Form, key) != Some(ModeAction::Recheck) {
        return false;
    }
    let Some(identifier) = model.act.recheck.clone() else {
        return false;
    };
    let id = model.next_id();
    let Some(Overlay::Form {
        kind: FormKind::Write(WriteKind::NewContact),
        form,
        saving: None,
        ..
    }) = model.overlay.as_mut()
    else {
        return false;
    };
    form.set_busy(true);
    form.set_error(format!("looking for {identifier} among the newest contacts…"));
    model.act.finding = Some(id);
    fx.push(Effect::FindContact { id, identifier });
    true
}

/// Records that the create of `identifier` (the form's value) may have
/// happened.
pub(crate) fn remember(model: &mut Model, identifier: Option<FormValue>) {
    model.act.recheck = match identifier {
        Some(FormValue::Text(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
}

/// The answer of the lookup.
pub(crate) fn found(
    model: &mut Model,
    id: ReqId,
    identifier: &str,
    result: Result<Option<Contact>, ApiError>,
    fx: &mut Vec<Effect>,
) {
    if model.act.finding != Some(id) {
        return;
    }
    model.act.finding = None;
    let now = model.now;
    let form = match model.overlay.as_mut() {
        Some(Overlay::Form {
            kind: FormKind::Write(WriteKind::NewContact),
            form,
            ..
        }) => Some(form),
        _ => None,
    };
    match result {
        Ok(Some(contact)) => {
            model.act.recheck = None;
            if form.is_some() {
                model.overlay = None;
            }
            model
                .act
                .drafts
                .remove(&(String::new(), FormKind::Write(WriteKind::NewContact)));
            let name = crate::tui::text::sanitize_line(&contact.name);
            add_created(model, contact, fx);
            model
                .status
                .push(ToastKind::Success, format!("it was created after all: {name}"), now);
        }
        Ok(None) => {
            model.act.recheck = None;
            let text = format!(
                "no contact with the number {identifier} among the newest: it was not created; Ctrl-S sends it again"
            );
            if let Some(f) = form {
                f.set_busy(false);
                f.set_error(text);
            } else {
                model.status.push(ToastKind::Info, text, now);
            }
        }
        Err(e) => {
            let text = format!("could not look for it: {e}; Ctrl-F tries again");
            if let Some(f) = form {
                f.set_busy(false);
                f.set_error(text);
            } else {
                model.status.push(ToastKind::Error, text, now);
            }
        }
    }
}

#[cfg(test)]
mod tests;

/// A contact created here (or found after a failed create): first in the
/// list, selected.
pub(crate) fn add_created(model: &mut Model, contact: Contact, fx: &mut Vec<Effect>) {
    super::inbox::inbox!(model, fx, |st, cx, out| {
        crate::tui::inbox::update::moves::add_created(st, cx, out, contact)
    });
}
