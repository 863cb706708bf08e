//! `/` search as the root calls it: the rules are the inbox's
//! (`inbox/update/search.rs`).

use super::inbox::inbox;
use crate::tui::effect::Effect;
use crate::tui::inbox::contact_list::SearchDone;
use crate::tui::inbox::update::search;
use crate::tui::model::Model;

pub(crate) fn start_search(model: &mut Model) {
    search::start_search(&mut model.list);
}

pub(crate) fn paste(model: &mut Model, text: &str, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| search::paste(st, cx, out, text));
}

pub(crate) fn searched(model: &mut Model, done: SearchDone, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| search::searched(st, cx, out, done));
}

pub(crate) fn clear_search(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, _out| search::clear_search(st, cx));
}

pub(crate) fn looked_up(
    model: &mut Model,
    id: u64,
    result: Result<Box<crate::api::Contact>, crate::api::ApiError>,
    fx: &mut Vec<Effect>,
) {
    inbox!(model, fx, |st, _cx, _out| crate::tui::inbox::update::lookup::looked_up(
        st, id, result
    ));
}
