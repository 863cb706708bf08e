//! `N` in the thread: an internal note on the conversation (POST
//! /contacts/:uuid/conversation/note). A small form over the thread; the
//! note shows in the thread (`✎ note`) once the service has it. A note
//! that could not be written is kept for the next `N`.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Clear;

use super::effect::ThreadEffect;
use super::state::{Popup, Thread};
use crate::api::ApiError;
use crate::tui::form::{FieldId, FieldKind, FieldSpec, Form, FormOutcome, FormValue};
use crate::tui::shared::{Cx, Note, Out, Pane, ToastKind, ViewCx};
use crate::tui::widgets::centered;

type O<'a> = Out<'a, ThreadEffect>;

/// The longest note the service takes, in characters.
pub const MAX_CHARS: usize = 4096;

fn form(contact_name: &str, text: String) -> Form {
    Form::new(
        format!("Internal note on {contact_name}"),
        vec![FieldSpec {
            key: FieldId::Note,
            label: "Note".into(),
            kind: FieldKind::Note {
                value: text,
                max_chars: MAX_CHARS,
            },
            required: true,
            help: Some("colleagues see it, the customer does not; @name tags one".into()),
        }],
    )
}

/// `N` with the thread focused: opens the note form.
pub fn open_note(t: &mut Thread, cx: &Cx, out: &mut O) {
    if cx.focus != Pane::Thread {
        return out.toast(ToastKind::Info, "move to the thread (Tab) to write a note");
    }
    let Some(contact) = t.contact.clone() else {
        return out.toast(ToastKind::Info, "select a contact first");
    };
    if t.noting.is_some() {
        return out.toast(ToastKind::Info, "the last note is still being written");
    }
    let name = cx
        .contacts
        .label(&contact)
        .map(|l| crate::text::clean_line(&l))
        .unwrap_or_else(|| "this conversation".into());
    let kept = t.note_draft.take().filter(|(c, _)| *c == contact).map(|(_, text)| text);
    t.popup = Some(Popup::Note {
        form: Box::new(form(&name, kept.unwrap_or_default())),
    });
}

/// A key in the note form: Esc drops it, the form's save writes it.
pub fn key(t: &mut Thread, cx: &Cx, out: &mut O, mut form: Box<Form>, key: KeyEvent) {
    match form.handle_key(cx.keys, key) {
        FormOutcome::Pending => t.popup = Some(Popup::Note { form }),
        FormOutcome::Cancelled => {}
        FormOutcome::Submitted => {
            let text = match form.value(&FieldId::Note) {
                Some(FormValue::Text(s)) => s,
                _ => String::new(),
            };
            let Some(contact) = t.contact.clone() else { return };
            if text.trim().is_empty() {
                out.toast(ToastKind::Info, "an empty note is not written");
                return t.popup = Some(Popup::Note { form });
            }
            let id = out.id();
            t.noting = Some((id, contact.clone(), text.clone()));
            out.fx(ThreadEffect::Note { id, contact, text });
            out.toast(ToastKind::Info, "writing the note…");
        }
    }
}

/// The service's answer to a note.
pub fn on_noted(t: &mut Thread, out: &mut O, id: crate::tui::shared::ReqId, result: Result<(), ApiError>) {
    let Some((asked, contact, text)) = t.noting.take() else {
        return;
    };
    if asked != id {
        t.noting = Some((asked, contact, text));
        return;
    }
    match result {
        Ok(()) => {
            out.toast(ToastKind::Success, "note written (colleagues only)");
            out.note(Note::Wrote(None));
            if t.contact.as_deref() == Some(contact.as_str()) {
                super::refresh::fetch_refresh(t, out);
            }
        }
        Err(e) => {
            let hint = if e.may_have_applied() {
                "it may have been written: look before N again"
            } else {
                "N brings it back"
            };
            out.toast(ToastKind::Error, format!("could not write the note: {e} ({hint})"));
            t.note_draft = Some((contact, text));
        }
    }
}

/// The note form over the thread pane.
pub fn render(form: &Form, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    let w = area.width.clamp(24, 72);
    let h = area.height.clamp(6, 12);
    let r = centered(area, w, h);
    frame.render_widget(Clear, r);
    form.render(frame, r, vcx.theme, vcx.keys);
}
