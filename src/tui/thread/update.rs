//! The thread: loading, older batches by cursor, refresh, the message
//! cursor, delete and details.

use std::time::Duration;

use crossterm::event::KeyEvent;

use super::effect::ThreadEffect;
use super::msg::{ThreadFetch, ThreadMsg};
pub use super::refresh::fetch_refresh;
use super::selected::selected_message;
use super::state::{Delivery, Geometry, Popup, Thread};
use crate::api::{ApiError, DeliveryStatus, Message, MessageStatus, Page, PageRequest};
use crate::tui::keymap::{Action, Mode, ModeAction as M};
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind};

type O<'a> = Out<'a, ThreadEffect>;

/// How often an open details popup asks for the delivery status again.
pub const STATUS_POLL: Duration = Duration::from_secs(2);

/// Older batches are fetched while the cursor is this many messages or
/// fewer from the oldest loaded one, so `k` rarely waits on the network.
const PREFETCH: usize = 40;

/// The thread pane's geometry now: its inner size (the whole screen
/// less the bars when it is not showing) and the zone.
fn geometry(cx: &Cx) -> Geometry {
    let r = cx
        .areas
        .thread
        .unwrap_or(ratatui::layout::Rect::new(0, 0, cx.width, cx.height.saturating_sub(4)));
    Geometry {
        width: r.width.saturating_sub(2),
        height: (r.height.saturating_sub(2)).max(1) as usize,
        tz: cx.session.tz,
    }
}

/// Shows `uuid`'s thread and asks for its newest batch.
pub fn open(st: &mut Thread, out: &mut O, uuid: &str) {
    let id = out.id();
    *st = Thread {
        contact: Some(uuid.to_string()),
        loading: Some(id),
        me: st.me.take(),
        previews: st.previews.clone(),
        hyperlinks: st.hyperlinks,
        ..Default::default()
    };
    out.note(Note::Seen(uuid.to_string()));
    out.fx(ThreadEffect::Fetch {
        id,
        contact: uuid.to_string(),
        fetch: ThreadFetch::Initial,
        at: PageRequest::First,
    });
}

fn fetch_older(t: &mut Thread, out: &mut O) {
    let (Some(uuid), Some(cursor)) = (t.contact.clone(), t.older.clone()) else {
        return;
    };
    if t.loading_older.is_some() || t.loading.is_some() {
        return;
    }
    let id = out.id();
    t.loading_older = Some(id);
    out.fx(ThreadEffect::Fetch {
        id,
        contact: uuid,
        fetch: ThreadFetch::Older,
        at: PageRequest::After(cursor),
    });
}

fn loaded(
    st: &mut Thread,
    cx: &Cx,
    out: &mut O,
    id: ReqId,
    contact: String,
    fetch: ThreadFetch,
    result: Result<Page<Message>, ApiError>,
) {
    if st.contact.as_deref() != Some(contact.as_str()) {
        return; // for a contact no longer shown
    }
    let slot = match fetch {
        ThreadFetch::Initial => &mut st.loading,
        ThreadFetch::Older => &mut st.loading_older,
        ThreadFetch::Refresh => &mut st.refreshing,
    };
    if *slot != Some(id) {
        return;
    }
    *slot = None;
    let page = match result {
        Ok(p) => p,
        Err(e) => {
            st.error = Some(e.to_string());
            st.to_start = false;
            if fetch != ThreadFetch::Refresh {
                out.toast(ToastKind::Error, format!("could not load messages: {e}"));
            }
            return;
        }
    };
    st.error = None;
    // The newest page goes to the index (the list's last message, search
    // over the thread's text): the root decides whether it needs it.
    let for_index = (fetch != ThreadFetch::Older && cx.indexed).then(|| page.items.clone());
    let mut batch = page.items;
    batch.reverse(); // the server sends newest first
    let g = geometry(cx);
    let t = st;
    let fresh = match fetch {
        ThreadFetch::Initial => {
            t.messages = batch;
            t.older = page.meta.next;
            t.loaded = true;
            t.scroll_to_newest();
            // A short first batch may not fill the pane: fetch more at once.
            if t.at_oldest(g) {
                fetch_older(t, out);
            }
            true
        }
        ThreadFetch::Older => {
            t.prepend(batch);
            t.older = page.meta.next;
            if t.to_start {
                t.cursor = Some(0);
                t.reveal(0, g);
                if t.older.is_some() {
                    fetch_older(t, out);
                } else {
                    t.to_start = false;
                }
            } else if t.selected().is_some_and(|c| c < PREFETCH) || t.at_oldest(g) {
                fetch_older(t, out);
            }
            false
        }
        ThreadFetch::Refresh => {
            let new = t.append(batch);
            if new > 0 && cx.session.bell {
                out.note(Note::Bell);
            }
            new > 0
        }
    };
    if let Some(messages) = for_index {
        out.note(Note::ThreadPage {
            contact,
            messages,
            fresh,
        });
    }
}

/// `j`/`k` move the cursor a message; the page keys move the view a screen
/// and the cursor with it; `g` goes to the start (loading all older
/// batches), `G` back to the newest.
pub fn scroll(t: &mut Thread, cx: &Cx, out: &mut O, action: Action) {
    let g = geometry(cx);
    let Some(sel) = t.selected() else {
        if action == Action::Top {
            fetch_older(t, out);
        }
        return;
    };
    let last = t.messages.len() - 1;
    match action {
        Action::MoveUp => {
            let c = sel.saturating_sub(1);
            t.cursor = Some(c);
            t.to_start = false;
            t.reveal(c, g);
        }
        Action::MoveDown if sel + 1 >= last => t.scroll_to_newest(),
        Action::MoveDown => {
            t.cursor = Some(sel + 1);
            t.reveal(sel + 1, g);
        }
        Action::PageUp => {
            t.scroll_up(g.height, g);
            t.to_start = false;
            t.cursor = t.block_at_row(0, g);
        }
        Action::PageDown => {
            t.scroll_down(g.height, g);
            if t.top.is_none() {
                t.scroll_to_newest();
            } else {
                t.cursor = t.block_at_row(g.height - 1, g);
            }
        }
        Action::Top => {
            t.cursor = Some(0);
            t.reveal(0, g);
            t.to_start = t.older.is_some();
        }
        Action::Bottom => t.scroll_to_newest(),
        _ => {}
    }
    let near_start = t.selected().is_some_and(|c| c < PREFETCH) || t.at_oldest(g);
    if near_start || t.to_start {
        fetch_older(t, out);
    }
}

/// Back to the newest message (after a send of ours).
pub fn scroll_to_newest(t: &mut Thread) {
    t.scroll_to_newest();
}

/// `d`: asks to delete the selected message, or says why it cannot be.
pub fn ask_delete(t: &mut Thread, cx: &Cx, out: &mut O) {
    let Some(m) = selected_message(t, cx, out) else { return };
    let why_not = match (&m.status, &m.uuid) {
        (MessageStatus::Sent, Some(_)) => None,
        (MessageStatus::Sent, None) => Some("this message has no id to delete it by"),
        (MessageStatus::Received, _) => Some("a received message is the customer's: only sent ones can be deleted"),
        (MessageStatus::Note, _) => Some("a note is not a message: only sent messages can be deleted"),
        (MessageStatus::Other(_), _) => Some("only messages sent from this side can be deleted"),
    };
    if let Some(why) = why_not {
        return out.toast(ToastKind::Info, format!("cannot delete: {why}"));
    }
    if t.deleting.is_some() {
        return out.toast(ToastKind::Info, "a delete is still in progress");
    }
    t.popup = Some(Popup::ConfirmDelete { message: Box::new(m) });
}

/// `i`: the selected message's details; a sent one's delivery status is
/// fetched now and again every [`STATUS_POLL`] while they are open.
pub fn open_info(t: &mut Thread, cx: &Cx, out: &mut O) {
    let Some(m) = selected_message(t, cx, out) else { return };
    let (delivery, poll) = match (&m.status, &m.uuid) {
        (MessageStatus::Sent, Some(uuid)) => {
            let id = out.id();
            out.fx(ThreadEffect::Status {
                id,
                uuid: uuid.clone(),
                after: Duration::ZERO,
            });
            (Delivery::Loading, Some(id))
        }
        _ => (Delivery::NotSent, None),
    };
    t.popup = Some(Popup::Info {
        message: Box::new(m),
        delivery,
        poll,
    });
}

/// Keys while a popup is open: `y` confirms a delete, `Esc`/`n`/`q`/`i`
/// close. Returns false when no popup is open.
pub fn popup_key(t: &mut Thread, cx: &Cx, out: &mut O, key: KeyEvent) -> bool {
    let Some(popup) = t.popup.take() else {
        return false;
    };
    let popup = match popup {
        Popup::Note { form } => {
            super::note::key(t, cx, out, form, key);
            return true;
        }
        Popup::Funnel { picker } => {
            super::funnel::key(t, cx, out, picker, key);
            return true;
        }
        other => other,
    };
    match (popup, cx.keys.mode_action_for(Mode::Message, &key)) {
        (Popup::ConfirmDelete { message }, Some(M::Yes)) => {
            let (Some(uuid), key) = (message.uuid.clone(), Thread::key(&message)) else {
                return true;
            };
            let id = out.id();
            t.deleting = Some((id, key.clone()));
            out.fx(ThreadEffect::Delete { id, uuid, key });
            out.toast(ToastKind::Info, "deleting the message…");
        }
        (_, Some(M::Close)) => {}
        (popup, _) => t.popup = Some(popup),
    }
    true
}

pub fn on_msg(t: &mut Thread, cx: &Cx, out: &mut O, msg: ThreadMsg) {
    match msg {
        ThreadMsg::Loaded {
            id,
            contact,
            fetch,
            result,
        } => loaded(t, cx, out, id, contact, fetch, result),
        ThreadMsg::Deleted { id, key, result } => {
            if t.deleting.as_ref().map(|d| d.0) != Some(id) {
                return;
            }
            t.deleting = None;
            match result {
                // The thread may have changed meanwhile: remove by identity.
                Ok(()) => {
                    t.remove(&key);
                    out.toast(ToastKind::Success, "message deleted");
                    out.note(Note::Wrote(None));
                }
                Err(e) => out.toast(ToastKind::Error, format!("could not delete the message: {e}")),
            }
        }
        ThreadMsg::FunnelSet { id, result } => super::funnel::on_moved(t, cx, out, id, result),
        ThreadMsg::Noted { id, result } => super::note::on_noted(t, out, id, result),
        ThreadMsg::Opened { url, outcome } => super::open::on_opened(out, url, outcome),
        // Only a frame: the preview is in the shared cache.
        ThreadMsg::PreviewReady => {}
        ThreadMsg::Status { id, result } => {
            let Some(Popup::Info {
                message,
                delivery,
                poll,
            }) = t.popup.as_mut()
            else {
                return; // closed: the poll ends here
            };
            if *poll != Some(id) {
                return;
            }
            *poll = None;
            let again = match result {
                Ok(s) => {
                    let done = matches!(s.status, DeliveryStatus::Read | DeliveryStatus::Failed);
                    *delivery = Delivery::Known(s);
                    !done
                }
                Err(ApiError::NotFound { .. }) => {
                    *delivery = Delivery::Unavailable("not sent through this interface: no delivery status".into());
                    false
                }
                Err(e) => {
                    *delivery = Delivery::Unavailable(format!("could not get the delivery status: {e}"));
                    true
                }
            };
            if let (true, Some(uuid)) = (again, message.uuid.clone()) {
                let id = out.id();
                if let Some(Popup::Info { poll, .. }) = t.popup.as_mut() {
                    *poll = Some(id);
                }
                out.fx(ThreadEffect::Status {
                    id,
                    uuid,
                    after: STATUS_POLL,
                });
            }
        }
    }
}
