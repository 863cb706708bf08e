//! The contact panel: its full record (with field types), scrolling and
//! the chat link.

use super::super::fx::DetailsEffect;
use super::super::state::{BotPanel, Details};
use crate::api::{ApiError, Contact};
use crate::tui::keymap::Action;
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind};

/// The selection settled on `uuid`: its full record and its bot.
pub fn open(st: &mut Details, cx: &Cx, out: &mut Out<DetailsEffect>, uuid: &str) {
    let id = out.id();
    st.full = cx.contacts.contact(uuid);
    st.loading = Some(id);
    st.scroll = 0;
    out.fx(DetailsEffect::FetchContact {
        id,
        uuid: uuid.to_string(),
    });
    let id = out.id();
    st.bot = BotPanel {
        contact: Some(uuid.to_string()),
        loading: Some(id),
        ..Default::default()
    };
    out.fx(DetailsEffect::FetchBot {
        id,
        uuid: uuid.to_string(),
    });
}

pub(super) fn loaded(
    st: &mut Details,
    cx: &Cx,
    out: &mut Out<DetailsEffect>,
    id: ReqId,
    uuid: &str,
    result: Result<Contact, ApiError>,
) {
    if st.loading != Some(id) {
        return;
    }
    st.loading = None;
    match result {
        Ok(c) => {
            out.note(Note::Learned(Box::new(c.clone())));
            if cx.open == Some(uuid) {
                st.full = Some(c);
            }
        }
        Err(e) => out.toast(ToastKind::Error, format!("could not load the contact: {e}")),
    }
}

/// `y`: the shown contact's chat link to the clipboard (OSC 52).
pub fn copy_link(st: &mut Details, cx: &Cx, out: &mut Out<DetailsEffect>) {
    let contact = st
        .shown(cx.open)
        .cloned()
        .or_else(|| cx.selected.and_then(|u| cx.contacts.contact(u)));
    let link = contact.and_then(|c| c.conversation_href.or(c.href));
    match link {
        Some(link) => {
            out.note(Note::Copy(link.clone()));
            let text = format!("copied {} (OSC 52)", crate::text::sanitize_line(&link));
            out.toast(ToastKind::Success, text);
        }
        None => out.toast(ToastKind::Info, "this contact has no dashboard link"),
    }
}

pub fn scroll(st: &mut Details, action: Action) {
    let s = &mut st.scroll;
    *s = match action {
        Action::MoveDown => s.saturating_add(1),
        Action::MoveUp => s.saturating_sub(1),
        Action::PageDown => s.saturating_add(10),
        Action::PageUp => s.saturating_sub(10),
        Action::Top => 0,
        _ => *s,
    };
}
