//! `update(&mut Model, Msg) -> Vec<Effect>`: pure and synchronous. No I/O,
//! no clock reads: time comes in on `Msg::Tick`.

pub(crate) mod account;
mod actions;
pub(crate) mod bulk;
pub(crate) mod call;
mod catalog;
pub(crate) mod compose;
mod details;
pub(crate) mod index;
mod keys;
mod list;
mod many;
mod mouse;
pub(crate) mod notes;
mod overlays;
pub(crate) mod recheck;
mod record;
mod search;
mod select;
mod undo;
pub(crate) mod views;

#[cfg(test)]
pub(crate) mod tests;

use crate::tui::inbox::InboxMsg;
use crossterm::event::KeyEventKind;

use super::effect::Effect;
use super::model::Model;
use super::model::catalog::Part;
use super::msg::Msg;
use super::thread;
use call::call;

pub use keys::run_action;
pub use list::apply_page;

/// Applies one message; returns what must happen outside.
pub fn update(model: &mut Model, msg: Msg) -> Vec<Effect> {
    let mut fx = Vec::new();
    match msg {
        Msg::Key(key) => {
            if key.kind != KeyEventKind::Release {
                keys::on_key(model, key, &mut fx);
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
        Msg::RefreshDue => keys::refresh(model, false, &mut fx),
        Msg::Quit => model.quit = true,
        Msg::Inbox(InboxMsg::CountTimeout(id)) => {
            if let Some((n, at)) = model.views.digit
                && at == id
            {
                model.views.digit = None;
                model.count = None;
                views::switch(model, n - 1, &mut fx);
            }
        }
        Msg::Inbox(InboxMsg::ViewSaved { name, result }) => views::saved(model, &name, result),
        Msg::Inbox(InboxMsg::SelectionSettled(id)) => {
            if model.settle == Some(id) {
                model.settle = None;
                select::load_selected(model, &mut fx);
            }
        }
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result,
        } => list::contacts_loaded(model, id, generation, fetch, result, &mut fx),
        Msg::Inbox(InboxMsg::ContactsSearched(done)) => search::searched(model, done, &mut fx),
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
        Msg::Thread(m) => call!(model, &mut fx, thread, Effect::Thread, |st, cx, out| thread::on_msg(
            st, cx, out, m
        )),
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
    crate::tui::inbox::marking::after_update(&mut model.marks, &model.list);
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
