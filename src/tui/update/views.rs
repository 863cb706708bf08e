//! The tabs as the root calls them: the rules are the inbox's
//! (`inbox/update/views.rs`); here the filter form (an overlay) is opened
//! and answered.

use super::inbox::inbox;
use crate::tui::effect::Effect;
use crate::tui::inbox::update::views;
use crate::tui::model::{FormKind, Model, Overlay};

pub(crate) use views::DIGIT_WAIT;

/// Recomputes the current view's rows and the counts when something they
/// depend on changed.
pub(crate) fn refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| views::refresh(st, cx, out));
}

/// Shows view `i`: its rows at once, where its selection last stood.
pub(crate) fn switch(model: &mut Model, i: usize, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| views::switch(st, cx, out, i));
}

/// Selects `uuid` now: in the current view when it is there, else in All
/// (what a created contact does; the snooze tests call it so).
#[cfg(test)]
pub(crate) fn select(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| views::select(st, cx, out, uuid));
}

/// `]` and `[`: the next or previous view, round.
pub(crate) fn step(model: &mut Model, forward: bool, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| views::step(st, cx, out, forward));
}

/// The agent's own write on `uuid`: its row stays until the selection moves.
pub(crate) fn keep(model: &mut Model, uuid: &str) {
    views::keep(&mut model.views, &model.list, uuid);
}

/// `f`: the current view's filter as a form.
pub(crate) fn open_filter(model: &mut Model) {
    let k = &model.known;
    let form =
        crate::tui::form::view_filter_form(model.views.current(), &k.sources, &k.tags, &k.collaborators, &k.teams);
    model.overlay = Some(Overlay::Form {
        kind: FormKind::View,
        uuid: String::new(),
        form,
        saving: None,
    });
}

/// The filter form was submitted: the inbox takes the filter (and saves a
/// named view), or the form says why not.
pub(crate) fn submit_filter(model: &mut Model, form: &crate::tui::form::Form, fx: &mut Vec<Effect>) {
    let answer = crate::tui::form::view_filter_value(form, &model.known.teams);
    let result = match answer {
        Ok((filter, name)) => {
            // Closed before the inbox acts, as the form is answered.
            let open = model.overlay.take();
            let result = inbox!(model, fx, |st, cx, out| views::apply_filter(st, cx, out, filter, name));
            if result.is_err() {
                model.overlay = open;
            }
            result
        }
        Err(e) => Err(e),
    };
    if let Err(e) = result
        && let Some(Overlay::Form { form, .. }) = model.overlay.as_mut()
    {
        form.set_error(e);
    }
}

/// The config file took the view (or did not).
pub(crate) fn saved(model: &mut Model, name: &str, result: Result<(), String>, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, _cx, out| views::saved(st.views, out, name, result));
}
