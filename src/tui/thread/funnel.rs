//! `T` in the thread: moves the open conversation to another funnel (PUT
//! /contacts/:uuid/conversation/update_funnel), picked from the account's
//! funnels; the current one is highlighted.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::effect::ThreadEffect;
use super::state::{Popup, Thread};
use crate::api::{ApiError, Contact};
use crate::text::clean_line;
use crate::tui::form::{FuzzyPicker, PickItem, PickOutcome};
use crate::tui::shared::catalog::Part;
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind, ViewCx};

type O<'a> = Out<'a, ThreadEffect>;

/// `T` in the thread: the funnel picker, or (funnels not read yet) asks for them.
pub fn open_funnels(t: &mut Thread, cx: &Cx, out: &mut O) {
    let Some(contact) = t.contact.clone() else {
        return out.toast(ToastKind::Info, "select a contact first");
    };
    let Some(funnels) = cx.catalog.funnels.data.as_ref() else {
        if !cx.catalog.loading(Part::Funnels) {
            out.note(Note::Fetch(Part::Funnels));
        }
        return out.toast(ToastKind::Info, "reading the funnels… T again in a moment");
    };
    if funnels.is_empty() {
        return out.toast(ToastKind::Info, "this account has no funnels");
    }
    let current = cx.contacts.contact(&contact).and_then(|c| c.funnel_id);
    let items = funnels
        .iter()
        .map(|f| PickItem {
            label: clean_line(format!("{} {}", f.emoji, f.name).trim()),
            detail: if current.as_deref() == Some(f.uuid.as_str()) {
                "current".into()
            } else {
                String::new()
            },
            key: f.uuid.clone(),
        })
        .collect();
    let mut picker = FuzzyPicker::new("Move the conversation to a funnel", items);
    if let Some(c) = &current {
        picker.highlight(c);
    }
    t.popup = Some(Popup::Funnel {
        picker: Box::new(picker),
    });
}

/// A key in the picker: Enter moves the conversation, Esc leaves it.
pub fn key(t: &mut Thread, cx: &Cx, out: &mut O, mut picker: Box<FuzzyPicker>, key: KeyEvent) {
    match picker.handle_key(cx.keys, key) {
        PickOutcome::Pending => t.popup = Some(Popup::Funnel { picker }),
        PickOutcome::Cancelled => {}
        PickOutcome::Chosen(funnel) => {
            let Some(contact) = t.contact.clone() else { return };
            let id = out.id();
            t.moving = Some(id);
            out.fx(ThreadEffect::Funnel { id, contact, funnel });
            out.toast(ToastKind::Info, "moving the conversation…");
        }
    }
}

/// The service's answer to a move.
pub fn on_moved(t: &mut Thread, cx: &Cx, out: &mut O, id: ReqId, result: Result<Box<Contact>, ApiError>) {
    if t.moving != Some(id) {
        return;
    }
    t.moving = None;
    match result {
        Ok(contact) => {
            let name = contact
                .funnel_id
                .as_deref()
                .and_then(|f| cx.catalog.funnels.data.as_ref()?.iter().find(|x| x.uuid == f))
                .map(|f| clean_line(&f.name))
                .unwrap_or_else(|| "the funnel".into());
            out.toast(ToastKind::Success, format!("moved to {name}"));
            out.note(Note::Wrote(Some(contact)));
        }
        Err(e) => out.toast(ToastKind::Error, format!("could not move the conversation: {e}")),
    }
}

pub fn render(picker: &FuzzyPicker, vcx: &ViewCx, frame: &mut Frame, area: Rect) {
    picker.render(frame, area, vcx.theme, vcx.keys);
}
