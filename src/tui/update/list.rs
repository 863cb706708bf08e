//! The contact list's walk and motions, as the root calls them: the rules
//! are the inbox's (`inbox/update/walk.rs`, `moves.rs`).

use crossterm::event::KeyEvent;

use super::inbox::inbox;
use crate::api::{ApiError, Contact, ContactFilter, Page};
use crate::tui::effect::Effect;
use crate::tui::inbox::update::{moves, walk};
use crate::tui::keymap::Action;
use crate::tui::model::Model;
use crate::tui::msg::{ListFetch, ReqId};

pub use walk::apply_page;

pub(crate) fn fetch_next(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| walk::fetch_next(st, cx, out));
}

pub(crate) fn fetch_refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| walk::fetch_refresh(st, cx, out));
}

pub(crate) fn maybe_prefetch(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| walk::maybe_prefetch(st, cx, out));
}

pub(crate) fn contacts_loaded(
    model: &mut Model,
    id: ReqId,
    generation: u64,
    fetch: ListFetch,
    result: Result<Page<Contact>, ApiError>,
    fx: &mut Vec<Effect>,
) {
    inbox!(model, fx, |st, cx, out| walk::contacts_loaded(
        st, cx, out, id, generation, fetch, result
    ));
}

pub(crate) fn move_selection(model: &mut Model, action: Action, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| moves::move_selection(st, cx, out, action));
}

pub(crate) fn search_key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| moves::search_key(st, cx, out, key));
}

/// A new filter: the thread and details shown go with the rows.
pub(crate) fn set_filter(model: &mut Model, filter: ContactFilter, fx: &mut Vec<Effect>) {
    model.thread = Default::default();
    model.details.full = None;
    inbox!(model, fx, |st, cx, out| walk::set_filter(st, cx, out, filter));
}
