//! `update(&mut Model, Msg) -> Vec<Effect>`: pure and synchronous. No I/O,
//! no clock reads: time comes in on `Msg::Tick`.

mod actions;
pub(crate) mod bulk;
pub(crate) mod call;
mod catalog;
mod close;
pub(crate) mod inbox;
pub(crate) mod index;
mod keys;
mod list;
mod macros;
mod many;
mod mouse;
pub(crate) mod notes;
mod overlays;
mod owner;
pub(crate) mod recheck;
mod record;
mod recorded;
mod search;
mod select;
pub(crate) mod slices;
mod undo;
pub(crate) mod views;

#[cfg(test)]
pub(crate) mod tests;

use crate::tui::inbox::InboxMsg;
use crossterm::event::KeyEventKind;

use super::compose;
use super::details;
use super::effect::Effect;
use super::model::catalog::Part;
use super::model::{Model, Top};
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
        // A paste goes where a key would: to the layer on screen.
        Msg::Paste(text) => match model.top() {
            Top::Slice => {
                crate::tui::slices::paste(&mut model.slices, &text);
            }
            Top::Account => crate::tui::account::paste(&mut model.account, &text),
            Top::ComposeStage | Top::Composer => {
                call!(model, &mut fx, compose, Effect::Compose, |st, _cx, out| compose::paste(
                    st, out, &text
                ));
            }
            Top::Search | Top::Overlay => overlays::paste(model, &text, &mut fx),
            Top::Popup | Top::Panes => {}
        },
        Msg::Mouse(ev) => mouse::on_mouse(model, ev, &mut fx),
        Msg::Resize(w, h) => {
            model.width = w;
            model.height = h;
            let height = model.list_height();
            model.list.clamp(height);
            list::maybe_prefetch(model, &mut fx);
        }
        Msg::Focus(gained) => crate::tui::notify::focus(&mut model.slices.notify, gained),
        Msg::Tick(now) => {
            model.now = now;
            model.frame = model.frame.wrapping_add(1);
            model.status.expire(now);
            slices::tick(model, &mut fx);
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
        Msg::Inbox(InboxMsg::ViewSaved { name, result }) => views::saved(model, &name, result, &mut fx),
        Msg::Inbox(InboxMsg::SelectionSettled(id)) => {
            if let Some(uuid) = crate::tui::inbox::update::selection::settled(&mut model.settle, &model.list, id) {
                select::load(model, &uuid, &mut fx);
            }
        }
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result,
        } => list::contacts_loaded(model, id, generation, fetch, result, &mut fx),
        Msg::Inbox(InboxMsg::ContactsSearched(done)) => search::searched(model, done, &mut fx),
        Msg::Inbox(InboxMsg::LookedUp { id, result }) => search::looked_up(model, id, result, &mut fx),
        Msg::ContactFound { id, identifier, result } => recheck::found(model, id, &identifier, result, &mut fx),
        Msg::Created { id, result } => actions::created(model, id, result, &mut fx),
        Msg::Applied { id, uuid, answer } => actions::applied(model, id, &uuid, answer, &mut fx),
        Msg::Runs(m) => undo::runs(model, m),
        Msg::Details(m) => call!(model, &mut fx, details, Effect::Details, |st, cx, out| details::on_msg(
            st, cx, out, m
        )),
        Msg::Compose(m) => call!(model, &mut fx, compose, Effect::Compose, |st, cx, out| compose::on_msg(
            st, cx, out, m
        )),
        Msg::Account(m) => account_msg(model, m, &mut fx),
        Msg::Thread(m) => call!(model, &mut fx, thread, Effect::Thread, |st, cx, out| thread::on_msg(
            st, cx, out, m
        )),
        Msg::Index(m) => index::on_msg(model, m, &mut fx),
        Msg::Slice(m) => slices::on_msg(model, m, &mut fx),
    }
    slices::after(model, &mut fx);
    for note in std::mem::take(&mut model.later) {
        match note {
            crate::tui::shared::Note::BotWrote { id, uuid, running }
                if !recorded::bot_wrote(model, id, &uuid, running) =>
            {
                let text = if running { "bot started" } else { "bot stopped" };
                let now = model.now;
                model.status.push(crate::tui::shared::ToastKind::Success, text, now);
            }
            crate::tui::shared::Note::Show(uuid) => select::load(model, &uuid, &mut fx),
            crate::tui::shared::Note::Reopen(uuid) => slices::reopen(model, &uuid, &mut fx),
            _ => {}
        }
    }
    if model.quit {
        // The draft typed since the last pause is written before the exit.
        call!(model, &mut fx, compose, Effect::Compose, |st, cx, out| compose::flush(
            st, cx, out
        ));
    }
    views::refresh(model, &mut fx);
    crate::tui::inbox::marking::after_update(&mut model.marks, &model.list);
    index::want_previews(model, &mut fx);
    fx
}

/// An answer to an account request: a catalog part settles in the root
/// (and wakes a composer waiting for templates); the rest is the overlay's.
fn account_msg(model: &mut Model, msg: crate::tui::account::AccountMsg, fx: &mut Vec<Effect>) {
    use crate::tui::account as acc;
    match catalog::loaded(model, msg, fx) {
        catalog::Caught::Part { templates } => {
            if templates {
                call!(model, fx, compose, Effect::Compose, |st, cx, out| {
                    compose::templates_arrived(st, cx, out)
                });
            }
            call!(
                model,
                fx,
                account,
                Effect::Account,
                |st, cx, _out| acc::catalog_settled(st, cx)
            );
        }
        catalog::Caught::Not(msg) => call!(model, fx, account, Effect::Account, |st, cx, out| acc::loaded(
            st, cx, out, *msg
        )),
    }
}

/// Effects to run once at start: the catalog parts forms and the details
/// pane need (templates wait until the composer or the overlay asks).
pub fn startup(model: &mut Model) -> Vec<Effect> {
    let mut fx = vec![Effect::Details(details::DetailsEffect::FetchCustomStatuses)];
    slices::startup(model, &mut fx);
    call!(model, &mut fx, compose, Effect::Compose, |_st, cx, out| {
        compose::startup(cx, out)
    });
    for part in [Part::Plan, Part::Teams, Part::Funnels, Part::Channels] {
        catalog::ensure(model, part, &mut fx);
    }
    if model.list.store.is_empty() && model.list.paging.loading.is_none() {
        list::fetch_next(model, &mut fx);
    }
    fx
}
