//! The thread: loading, older batches by cursor, refresh, scrolling.

use std::collections::HashSet;

use crate::api::{ApiError, Message, Page, PageRequest};
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::{Model, Thread, ToastKind};
use crate::tui::msg::{ReqId, ThreadFetch};
use crate::tui::view::thread::line_count;

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

fn total_lines(model: &Model) -> usize {
    let (w, _) = model.thread_inner();
    line_count(&model.thread.messages, w, model.session.tz)
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
            if fetch != ThreadFetch::Refresh {
                model
                    .status
                    .push(ToastKind::Error, format!("could not load messages: {e}"), now);
            }
            return;
        }
    };
    model.thread.error = None;
    let mut batch = page.items;
    batch.reverse(); // the server sends newest first
    match fetch {
        ThreadFetch::Initial => {
            model.thread.messages = batch;
            model.thread.older = page.meta.next;
            model.thread.loaded = true;
            model.thread.scroll = 0;
            // A short first batch may not fill the pane: fetch more at once.
            if total_lines(model) <= model.thread_inner().1 as usize {
                fetch_older(model, fx);
            }
        }
        ThreadFetch::Older => {
            let known: HashSet<String> = model.thread.messages.iter().map(Thread::key).collect();
            batch.retain(|m| !known.contains(&Thread::key(m)));
            let n = batch.len();
            model.thread.messages.splice(0..0, batch);
            if let Some(f) = model.thread.new_from.as_mut() {
                *f += n;
            }
            model.thread.older = page.meta.next;
            // `scroll` counts from the bottom, so the view stays where it was.
        }
        ThreadFetch::Refresh => {
            let known: HashSet<String> = model.thread.messages.iter().map(Thread::key).collect();
            let latest = model.thread.messages.last().and_then(|m| m.created_at);
            batch.retain(|m| !known.contains(&Thread::key(m)) && m.created_at >= latest);
            if batch.is_empty() {
                return;
            }
            let before = total_lines(model);
            let start = model.thread.messages.len();
            model.thread.messages.extend(batch);
            if model.thread.new_from.is_none() {
                model.thread.new_from = Some(start);
            }
            if model.thread.scroll > 0 {
                model.thread.scroll += total_lines(model) - before;
            }
            if model.session.bell {
                fx.push(Effect::Bell);
            }
        }
    }
}

pub(crate) fn scroll(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    let (_, h) = model.thread_inner();
    let h = h.max(1) as usize;
    let max = total_lines(model).saturating_sub(h);
    let t = &mut model.thread;
    t.scroll = match action {
        Action::MoveUp => t.scroll + 1,
        Action::MoveDown => t.scroll.saturating_sub(1),
        Action::PageUp => t.scroll + h,
        Action::PageDown => t.scroll.saturating_sub(h),
        Action::Top => max,
        Action::Bottom => 0,
        _ => t.scroll,
    }
    .min(max);
    if t.scroll == 0 {
        t.new_from = None;
    }
    if t.scroll >= max {
        fetch_older(model, fx);
    }
}
