//! `update` as the user meets it: every action, success and failure.

mod habits;
mod hidden;
mod index;
mod list;
mod list_search;
mod list_walk;
mod many_views;
mod modes;
mod overlays;
mod presence;
mod search_selection;
mod views;

use crate::tui::inbox::{InboxEffect, InboxMsg};
use crossterm::event::KeyCode;

use super::*;
use crate::api::{ApiError, ContactFilter, PageRequest};
use crate::tui::fixtures::*;
use crate::tui::model::{FormKind, Overlay, Pane, ToastKind};
use crate::tui::msg::{ListFetch, ThreadFetch, WriteKind};

pub(crate) fn err() -> ApiError {
    ApiError::Validation {
        message: "note is too long".into(),
        fields: Default::default(),
    }
}

/// Sends the debounce result if the effects asked for one.
pub(crate) fn settle(m: &mut Model, fx: &[Effect]) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in fx {
        if let Effect::Inbox(InboxEffect::Debounce { id, .. }) = e {
            out.extend(update(m, Msg::Inbox(InboxMsg::SelectionSettled(*id))));
        }
    }
    out
}

/// `update` plus the debounce firing at once.
pub(crate) fn step(m: &mut Model, msg: Msg) -> Vec<Effect> {
    let fx = update(m, msg);
    let mut more = settle(m, &fx);
    more.extend(fx);
    more
}

pub(crate) fn thread_fetch(fx: &[Effect]) -> Option<(u64, String, ThreadFetch, PageRequest)> {
    fx.iter().find_map(|e| match e {
        Effect::Thread(crate::tui::thread::ThreadEffect::Fetch { id, contact, fetch, at }) => {
            Some((*id, contact.clone(), *fetch, at.clone()))
        }
        _ => None,
    })
}

pub(crate) fn list_fetch(fx: &[Effect]) -> Option<(u64, u64, ListFetch, ContactFilter, PageRequest)> {
    fx.iter().find_map(|e| match e {
        Effect::FetchContacts {
            id,
            generation,
            fetch,
            filter,
            at,
            ..
        } => Some((*id, *generation, *fetch, filter.clone(), at.clone())),
        _ => None,
    })
}

pub(crate) fn type_text(m: &mut Model, s: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in s.chars() {
        fx.extend(update(m, key(c)));
    }
    fx
}

pub(crate) fn submit(m: &mut Model) -> Vec<Effect> {
    update(m, ctrl('s'))
}

/// The id of the close among `fx`.
pub(crate) fn close_id(fx: &[Effect]) -> u64 {
    fx.iter()
        .find_map(|e| match e {
            Effect::Apply {
                id,
                action: crate::triage::bulk::Action::Close,
                ..
            } => Some(*id),
            _ => None,
        })
        .expect("a close")
}

pub(crate) fn patch_of(fx: &[Effect]) -> (u64, String, WriteKind, crate::api::ContactPatch) {
    fx.iter()
        .find_map(|e| match e {
            // A form's write is one action: the PATCH it sends.
            Effect::Apply { id, uuid, action, .. } => Some((*id, uuid.clone(), WriteKind::of(action), action.patch()?)),
            _ => None,
        })
        .expect("a PATCH effect")
}

/// The open form, if any.
fn open_form(m: &Model) -> Option<&crate::tui::form::Form> {
    match &m.overlay {
        Some(Overlay::Form { form, .. }) => Some(form),
        _ => None,
    }
}

/// The server's message at the foot of the open form.
pub(crate) fn form_error(m: &Model) -> Option<String> {
    open_form(m)?.error().map(str::to_string)
}

/// The inline error shown beside the open form's field `key`.
pub(crate) fn field_error(m: &Model, key: &crate::tui::form::FieldId) -> Option<String> {
    open_form(m)?.field_error(key)
}

/// The id of the catalog fetch of `part` among `fx`.
pub(crate) fn catalog_fetch(fx: &[Effect], part: crate::tui::model::catalog::Part) -> u64 {
    use crate::tui::account::AccountEffect as A;
    use crate::tui::model::catalog::Part as P;
    fx.iter()
        .find_map(|e| match (e, part) {
            (Effect::Account(A::FetchFunnels { id }), P::Funnels)
            | (Effect::Account(A::FetchChannels { id }), P::Channels)
            | (Effect::Account(A::FetchTeams { id }), P::Teams)
            | (Effect::Account(A::FetchPlan { id }), P::Plan)
            | (Effect::Account(A::FetchTemplates { id }), P::Templates) => Some(*id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no fetch of {part:?} in {fx:?}"))
}
