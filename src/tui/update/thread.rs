//! The thread: loading, older batches by cursor, refresh, the message
//! cursor, delete and details.

use std::time::Duration;

use crossterm::event::KeyEvent;

use crate::api::{ApiError, DeliveryStatus, Message, MessageStatus, Page, PageRequest};
use crate::tui::effect::Effect;
use crate::tui::effect::thread::ThreadEffect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::keymap::{Action, Mode, ModeAction as M};
use crate::tui::model::thread::{Delivery, Geometry, Popup};
use crate::tui::model::{Model, Pane, Thread, ToastKind};
use crate::tui::msg::thread::ThreadMsg;
use crate::tui::msg::{ReqId, ThreadFetch};

/// How often an open details popup asks for the delivery status again.
pub const STATUS_POLL: Duration = Duration::from_secs(2);

/// Older batches are fetched while the cursor is this many messages or
/// fewer from the oldest loaded one, so `k` rarely waits on the network.
const PREFETCH: usize = 40;

/// The thread pane's geometry now.
fn geometry(model: &Model) -> Geometry {
    let (w, h) = model.thread_inner();
    Geometry {
        width: w,
        height: h.max(1) as usize,
        tz: model.session.tz,
    }
}

/// Shows `uuid`'s thread and asks for its newest batch.
pub(crate) fn open(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    model.thread = Thread {
        contact: Some(uuid.to_string()),
        loading: Some(id),
        ..Default::default()
    };
    model.list.mark_seen(uuid);
    fx.push(Effect::FetchThread {
        id,
        contact: uuid.to_string(),
        fetch: ThreadFetch::Initial,
        at: PageRequest::First,
    });
}

pub(crate) fn fetch_refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.thread.contact.clone() else {
        return;
    };
    if model.thread.loading.is_some() {
        return;
    }
    let id = model.next_id();
    model.thread.refreshing = Some(id);
    fx.push(Effect::FetchThread {
        id,
        contact: uuid,
        fetch: ThreadFetch::Refresh,
        at: PageRequest::First,
    });
}

fn fetch_older(model: &mut Model, fx: &mut Vec<Effect>) {
    let t = &model.thread;
    let (Some(uuid), Some(cursor)) = (t.contact.clone(), t.older.clone()) else {
        return;
    };
    if t.loading_older.is_some() || t.loading.is_some() {
        return;
    }
    let id = model.next_id();
    model.thread.loading_older = Some(id);
    fx.push(Effect::FetchThread {
        id,
        contact: uuid,
        fetch: ThreadFetch::Older,
        at: PageRequest::After(cursor),
    });
}

pub(crate) fn loaded(
    model: &mut Model,
    id: ReqId,
    contact: &str,
    fetch: ThreadFetch,
    result: Result<Page<Message>, ApiError>,
    fx: &mut Vec<Effect>,
) {
    if model.thread.contact.as_deref() != Some(contact) {
        return; // for a contact no longer shown
    }
    let slot = match fetch {
        ThreadFetch::Initial => &mut model.thread.loading,
        ThreadFetch::Older => &mut model.thread.loading_older,
        ThreadFetch::Refresh => &mut model.thread.refreshing,
    };
    if *slot != Some(id) {
        return;
    }
    *slot = None;
    let page = match result {
        Ok(p) => p,
        Err(e) => {
            let now = model.now;
            model.thread.error = Some(e.to_string());
            model.thread.to_start = false;
            if fetch != ThreadFetch::Refresh {
                model
                    .status
                    .push(ToastKind::Error, format!("could not load messages: {e}"), now);
            }
            return;
        }
    };
    model.thread.error = None;
    // The newest page goes to the index (the list's last message, search
    // over the thread's text): when first opened, and on a refresh that
    // brought something the index lacks.
    let activity = model.list.get(contact).and_then(|r| r.last_activity());
    let stale = model.sync.previews.get(contact).is_none_or(|p| p.activity != activity);
    let for_index = (fetch != ThreadFetch::Older && model.sync.enabled()).then(|| page.items.clone());
    let mut batch = page.items;
    batch.reverse(); // the server sends newest first
    let g = geometry(model);
    match fetch {
        ThreadFetch::Initial => {
            let t = &mut model.thread;
            t.messages = batch;
            t.older = page.meta.next;
            t.loaded = true;
            t.scroll_to_newest();
            // A short first batch may not fill the pane: fetch more at once.
            if t.at_oldest(g) {
                fetch_older(model, fx);
            }
        }
        ThreadFetch::Older => {
            let t = &mut model.thread;
            t.prepend(batch);
            t.older = page.meta.next;
            if t.to_start {
                if t.older.is_some() {
                    t.cursor = Some(0);
                    t.reveal(0, g);
                    fetch_older(model, fx);
                } else {
                    t.to_start = false;
                    t.cursor = Some(0);
                    t.reveal(0, g);
                }
            } else if t.selected().is_some_and(|c| c < PREFETCH) || t.at_oldest(g) {
                fetch_older(model, fx);
            }
        }
        ThreadFetch::Refresh => {
            let new = model.thread.append(batch);
            if new > 0 && model.session.bell {
                fx.push(Effect::Bell);
            }
            if new == 0 && !stale {
                return; // the index has this page already
            }
        }
    }
    if let Some(messages) = for_index {
        fx.push(Effect::Index(IndexCmd::StoreThread {
            uuid: contact.to_string(),
            activity,
            messages,
        }));
    }
}

/// `j`/`k` move the cursor a message; the page keys move the view a screen
/// and the cursor with it; `g` goes to the start (loading all older
/// batches), `G` back to the newest.
pub(crate) fn scroll(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    let g = geometry(model);
    let t = &mut model.thread;
    let Some(sel) = t.selected() else {
        if action == Action::Top {
            fetch_older(model, fx);
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
        fetch_older(model, fx);
    }
}

/// The selected message, if the thread pane has the focus and a message.
fn selected_message(model: &mut Model) -> Option<Message> {
    if model.focus != Pane::Thread {
        toast(
            model,
            ToastKind::Info,
            "move to the thread (Tab) and pick a message with j/k",
        );
        return None;
    }
    let t = &model.thread;
    let m = t.selected().map(|i| t.messages[i].clone());
    if m.is_none() {
        toast(model, ToastKind::Info, "no message to pick in this thread");
    }
    m
}

fn toast(model: &mut Model, kind: ToastKind, text: impl Into<String>) {
    let now = model.now;
    model.status.push(kind, text, now);
}

/// `d`: asks to delete the selected message, or says why it cannot be.
pub(crate) fn ask_delete(model: &mut Model) {
    let Some(m) = selected_message(model) else { return };
    let why_not = match (&m.status, &m.uuid) {
        (MessageStatus::Sent, Some(_)) => None,
        (MessageStatus::Sent, None) => Some("this message has no id to delete it by"),
        (MessageStatus::Received, _) => Some("a received message is the customer's: only sent ones can be deleted"),
        (MessageStatus::Note, _) => Some("a note is not a message: only sent messages can be deleted"),
        (MessageStatus::Other(_), _) => Some("only messages sent from this side can be deleted"),
    };
    if let Some(why) = why_not {
        return toast(model, ToastKind::Info, format!("cannot delete: {why}"));
    }
    if model.thread.deleting.is_some() {
        return toast(model, ToastKind::Info, "a delete is still in progress");
    }
    model.thread.popup = Some(Popup::ConfirmDelete { message: Box::new(m) });
}

/// `i`: the selected message's details; a sent one's delivery status is
/// fetched now and again every [`STATUS_POLL`] while they are open.
pub(crate) fn open_info(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(m) = selected_message(model) else { return };
    let (delivery, poll) = match (&m.status, &m.uuid) {
        (MessageStatus::Sent, Some(uuid)) => {
            let id = model.next_id();
            fx.push(Effect::Thread(ThreadEffect::Status {
                id,
                uuid: uuid.clone(),
                after: Duration::ZERO,
            }));
            (Delivery::Loading, Some(id))
        }
        _ => (Delivery::NotSent, None),
    };
    model.thread.popup = Some(Popup::Info {
        message: Box::new(m),
        delivery,
        poll,
    });
}

/// Keys while a popup is open: `y` confirms a delete, `Esc`/`n`/`q`/`i`
/// close. Returns false when no popup is open.
pub(crate) fn popup_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> bool {
    let Some(popup) = model.thread.popup.take() else {
        return false;
    };
    match (popup, model.keys.mode_action_for(Mode::Message, &key)) {
        (Popup::ConfirmDelete { message }, Some(M::Yes)) => {
            let (Some(uuid), key) = (message.uuid.clone(), Thread::key(&message)) else {
                return true;
            };
            let id = model.next_id();
            model.thread.deleting = Some((id, key.clone()));
            fx.push(Effect::Thread(ThreadEffect::Delete { id, uuid, key }));
            toast(model, ToastKind::Info, "deleting the message…");
        }
        (_, Some(M::Close)) => {}
        (popup, _) => model.thread.popup = Some(popup),
    }
    true
}

pub(crate) fn on_msg(model: &mut Model, msg: ThreadMsg, fx: &mut Vec<Effect>) {
    match msg {
        ThreadMsg::Deleted { id, key, result } => {
            if model.thread.deleting.as_ref().map(|d| d.0) != Some(id) {
                return;
            }
            model.thread.deleting = None;
            match result {
                // The thread may have changed meanwhile: remove by identity.
                Ok(()) => {
                    model.thread.remove(&key);
                    toast(model, ToastKind::Success, "message deleted");
                    super::notes::after_write(model, fx);
                }
                Err(e) => toast(model, ToastKind::Error, format!("could not delete the message: {e}")),
            }
        }
        ThreadMsg::Status { id, result } => {
            let Some(Popup::Info {
                message,
                delivery,
                poll,
            }) = model.thread.popup.as_mut()
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
                let id = model.next_id();
                if let Some(Popup::Info { poll, .. }) = model.thread.popup.as_mut() {
                    *poll = Some(id);
                }
                fx.push(Effect::Thread(ThreadEffect::Status {
                    id,
                    uuid,
                    after: STATUS_POLL,
                }));
            }
        }
    }
}
