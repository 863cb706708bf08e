//! `update(&mut Model, Msg) -> Vec<Effect>`: pure and synchronous. No I/O,
//! no clock reads: time comes in on `Msg::Tick`.

pub(crate) mod account;
mod actions;
pub(crate) mod bulk;
mod catalog;
mod compose;
mod details;
pub(crate) mod index;
mod list;
mod many;
mod marks;
mod mouse;
mod overlays;
pub(crate) mod recheck;
mod search;
mod thread;
mod undo;
pub(crate) mod views;

#[cfg(test)]
mod tests;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

use super::effect::Effect;
use super::keymap::{Action, action_for};
use super::model::catalog::Part;
use super::model::{Model, Pane, ToastKind};
use super::msg::Msg;

pub use list::apply_page;

/// Applies one message; returns what must happen outside.
pub fn update(model: &mut Model, msg: Msg) -> Vec<Effect> {
    let mut fx = Vec::new();
    match msg {
        Msg::Key(key) => {
            if key.kind != KeyEventKind::Release {
                on_key(model, key, &mut fx);
            }
        }
        Msg::Paste(text) if model.overlay.is_none() && model.account.is_some() => account::paste(model, &text),
        Msg::Paste(text) => {
            if !compose::paste(model, &text) {
                overlays::paste(model, &text, &mut fx)
            }
        }
        Msg::Mouse(ev) => mouse::on_mouse(model, ev, &mut fx),
        Msg::Resize(w, h) => {
            model.width = w;
            model.height = h;
            let height = model.list_height();
            model.list.clamp(height);
            list::maybe_prefetch(model, &mut fx);
        }
        Msg::Tick(now) => {
            model.now = now;
            model.frame = model.frame.wrapping_add(1);
            model.status.expire(now);
        }
        Msg::RefreshDue => refresh(model, false, &mut fx),
        Msg::Quit => model.quit = true,
        Msg::CountTimeout(id) => {
            if let Some((n, at)) = model.views.digit
                && at == id
            {
                model.views.digit = None;
                model.count = None;
                views::switch(model, n - 1, &mut fx);
            }
        }
        Msg::ViewSaved { name, result } => views::saved(model, &name, result),
        Msg::SelectionSettled(id) => {
            if model.settle == Some(id) {
                model.settle = None;
                load_selected(model, &mut fx);
            }
        }
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result,
        } => list::contacts_loaded(model, id, generation, fetch, result, &mut fx),
        Msg::ContactsSearched(done) => search::searched(model, done, &mut fx),
        Msg::ThreadLoaded {
            id,
            contact,
            fetch,
            result,
        } => thread::loaded(model, id, &contact, fetch, result, &mut fx),
        Msg::ContactLoaded { id, uuid, result } => details::contact_loaded(model, id, &uuid, result),
        Msg::ContactFound { id, identifier, result } => recheck::found(model, id, &identifier, result, &mut fx),
        Msg::BotLoaded { id, uuid, result } => details::bot_loaded(model, id, &uuid, result),
        Msg::BotSet { id, uuid, result } => details::bot_set(model, id, &uuid, result),
        Msg::WriteDone { id, uuid, kind, result } => actions::write_done(model, id, &uuid, kind, result, &mut fx),
        Msg::Applied { id, uuid, result } => bulk::applied(model, id, &uuid, result, &mut fx),
        Msg::UserStatusSet { id, result } => details::user_status_set(model, id, result),
        Msg::CustomStatusesLoaded(result) => {
            model.availability.statuses = Some(result.map_err(|e| e.to_string()));
        }
        Msg::Compose(m) => compose::on_msg(model, m, &mut fx),
        Msg::Account(m) => account::loaded(model, m, &mut fx),
        Msg::Thread(m) => thread::on_msg(model, m, &mut fx),
        Msg::Index(m) => index::on_msg(model, m, &mut fx),
        Msg::TeamMembersLoaded { result, .. } => {
            if let Ok(members) = result {
                for m in members {
                    model.known.add_collaborator(&m.email);
                    details::learn_my_status(model, &m);
                }
            }
        }
    }
    views::refresh(model, &mut fx);
    marks::after_update(model);
    index::want_previews(model, &mut fx);
    fx
}

/// Effects to run once at start: the catalog parts forms and the details
/// pane need (templates wait until the composer or the overlay asks).
pub fn startup(model: &mut Model) -> Vec<Effect> {
    let mut fx = vec![Effect::FetchCustomStatuses];
    for part in [Part::Plan, Part::Teams, Part::Funnels, Part::Channels] {
        catalog::ensure(model, part, &mut fx);
    }
    if model.list.store.is_empty() && model.list.paging.loading.is_none() {
        list::fetch_next(model, &mut fx);
    }
    fx
}

fn on_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    if model.overlay.is_some() {
        overlays::key(model, key, fx);
        return;
    }
    // The account overlay covers the inbox, so it takes keys before the
    // composer does.
    if model.account.is_some() {
        account::key(model, key, fx);
        return;
    }
    if thread::popup_key(model, key, fx) {
        return;
    }
    if compose::active(model) {
        return compose::key(model, key, fx);
    }
    if model.list.view.search.as_ref().is_some_and(|s| s.editing) {
        list::search_key(model, key, fx);
        return;
    }
    if let Some(n) = super::keymap::count_digit(&key, model.count) {
        // A lone 1…9 names a view, unless a motion follows it (`5j`).
        model.views.digit = match model.count {
            None if n <= 9 => {
                let id = model.next_id();
                fx.push(Effect::CountTimeout {
                    id,
                    after: views::DIGIT_WAIT,
                });
                Some((n as usize, id))
            }
            _ => None,
        };
        model.count = Some(n);
        return;
    }
    let action = action_for(&key);
    if let Some((n, _)) = model.views.digit.take()
        && !action.is_some_and(|a| a.takes_count())
    {
        model.count = None;
        views::switch(model, n - 1, fx);
        if key.code == KeyCode::Enter {
            return;
        }
    }
    let count = model.count.take().unwrap_or(1);
    if let Some(action) = action {
        let times = if action.takes_count() { count } else { 1 };
        for _ in 0..times {
            run_action(model, action, fx);
        }
    } else if key.code == KeyCode::Enter && model.focus == Pane::List && !model.is_wide() {
        model.focus = Pane::Thread;
    }
}

/// Runs one action: from a key or from the palette.
pub fn run_action(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    if many::on_marks(model, action, fx) {
        return;
    }
    match action {
        Action::MoveDown | Action::MoveUp | Action::Top | Action::Bottom | Action::PageDown | Action::PageUp => {
            match model.focus {
                Pane::List => list::move_selection(model, action, fx),
                Pane::Thread => thread::scroll(model, action, fx),
                Pane::Details => details::scroll(model, action),
            }
        }
        Action::NextPane | Action::PrevPane => {
            let i = Pane::ALL.iter().position(|p| *p == model.focus).unwrap_or(0);
            let n = if action == Action::NextPane {
                (i + 1) % 3
            } else {
                (i + 2) % 3
            };
            model.focus = Pane::ALL[n];
        }
        Action::Search => list::start_search(model),
        Action::Filter => views::open_filter(model),
        Action::ServerFilter => actions::open_filter(model),
        Action::NextView => views::step(model, true, fx),
        Action::PrevView => views::step(model, false, fx),
        Action::ToggleClosed => actions::toggle_closed(model, false, fx),
        Action::CloseAndNext => actions::toggle_closed(model, true, fx),
        Action::Edit | Action::Tags | Action::Assign | Action::Team | Action::Note | Action::NewContact => {
            actions::open_form(model, action)
        }
        Action::Bot => details::toggle_bot(model, fx),
        Action::Reply => compose::open(model, fx),
        Action::Availability => details::toggle_availability(model, fx),
        Action::CustomStatus => details::open_custom_status(model),
        Action::CopyLink => details::copy_link(model, fx),
        Action::Refresh => {
            refresh(model, true, fx);
            let now = model.now;
            model.status.push(ToastKind::Info, "refreshing…", now);
        }
        Action::Help => model.overlay = Some(super::model::Overlay::Help { scroll: 0 }),
        Action::Palette => overlays::open_palette(model),
        Action::Account => account::open(model, fx),
        Action::Redraw => fx.push(Effect::Redraw),
        // Esc stops a run first, then drops the marks, then the search.
        Action::Cancel => {
            if model.bulk.is_some() {
                bulk::cancel(model, fx);
            } else if marks::clear(model) {
            } else if model.list.view.search.is_some() {
                list::clear_search(model, fx);
            }
        }
        Action::Mark => marks::toggle(model, fx),
        Action::MarkRange => marks::range(model),
        Action::MarkAll => marks::all(model),
        Action::Repeat => many::repeat(model, fx),
        Action::Quit => model.quit = true,
        Action::DeleteMessage => thread::ask_delete(model),
        Action::MessageInfo => thread::open_info(model, fx),
        Action::Undo => undo::undo_last(model, fx),
        Action::History => undo::open_history(model),
    }
}

/// The periodic refresh: an incremental pass of the index (or the first
/// page, when a filter shows the API's walk) and the open thread.
fn refresh(model: &mut Model, forced: bool, fx: &mut Vec<Effect>) {
    if index::backs_list(model) {
        fx.push(Effect::Index(super::index_worker::IndexCmd::Incremental));
        // The pass says when the open conversation has a new message (its
        // lastMessageAt moves): the thread is fetched then, not on every
        // tick. A server that does not send lastMessageAt gets the tick;
        // `r` always fetches.
        if !forced && index::open_thread_followed(model) {
            return;
        }
    } else {
        list::fetch_refresh(model, fx);
    }
    thread::fetch_refresh(model, fx);
}

/// Called whenever the selected row may have changed: waits for the
/// selection to settle before loading thread, details and bot.
pub(crate) fn selection_changed(model: &mut Model, fx: &mut Vec<Effect>) {
    let uuid = model.list.selected_uuid();
    if uuid.is_none() || uuid == model.thread.contact {
        return;
    }
    let id = model.next_id();
    model.settle = Some(id);
    fx.push(Effect::Debounce {
        id,
        after: std::time::Duration::from_millis(150),
    });
}

/// Loads the thread, full record and bot of the selected contact now.
pub(crate) fn load_selected(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(uuid) = model.list.selected_uuid() else { return };
    thread::open(model, &uuid, fx);
    details::open(model, &uuid, fx);
}
