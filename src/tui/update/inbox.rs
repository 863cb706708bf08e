//! Calling the inbox slice (`tui/inbox/update/`): its effects wrapped into
//! the root's (the list's walk and its asks of the index worker are the
//! root's to run), its notes routed (`Note::Show` loads the thread and the
//! details, other slices), and the `inbox!` shorthand for `call!`.

use crate::tui::effect::Effect;
use crate::tui::inbox::{InboxEffect, IndexAsk};
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::Model;
use crate::tui::shared::Note;

/// The inbox's effect as the root runs it.
pub(crate) fn wrap(e: InboxEffect) -> Effect {
    match e {
        InboxEffect::FetchContacts(w) => Effect::FetchContacts {
            id: w.id,
            generation: w.generation,
            fetch: w.fetch,
            filter: w.filter,
            at: w.at,
            pages: w.pages,
        },
        InboxEffect::Index(IndexAsk::Load { generation, skip }) => Effect::Index(IndexCmd::Load { generation, skip }),
        InboxEffect::Index(IndexAsk::Incremental) => Effect::Index(IndexCmd::Incremental),
        InboxEffect::Index(IndexAsk::Previews(wanted)) => Effect::Index(IndexCmd::Previews(wanted)),
        InboxEffect::Index(IndexAsk::Store(contact)) => Effect::Index(IndexCmd::Store(contact)),
        InboxEffect::ReleaseMemory => Effect::ReleaseMemory,
        e => Effect::Inbox(e),
    }
}

/// The inbox's notes, in order: a contact to show loads here; the rest go
/// where every slice's go.
pub(crate) fn route(model: &mut Model, notes: Vec<Note>, fx: &mut Vec<Effect>) {
    for note in notes {
        match note {
            Note::Show(uuid) => super::select::load(model, &uuid, fx),
            note => super::notes::route(model, vec![note], fx),
        }
    }
}

/// `inbox!(model, fx, |st, cx, out| body)`: `call!` for the inbox, its
/// parts lent together as `st`, its notes routed by [`route`].
macro_rules! inbox {
    ($model:expr, $fx:expr, |$st:ident, $cx:ident, $out:ident| $body:expr) => {{
        let model: &mut $crate::tui::model::Model = $model;
        let fx: &mut Vec<$crate::tui::effect::Effect> = $fx;
        let (result, notes) = $crate::tui::update::call::call!(
            model, fx, inbox keep, $crate::tui::update::inbox::wrap, |$st, $cx, $out| $body
        );
        $crate::tui::update::inbox::route(model, notes, fx);
        result
    }};
}

pub(crate) use inbox;

/// Called whenever the selected row may have changed: waits for the
/// selection to settle before loading thread, details and bot.
pub(crate) fn selection_changed(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| {
        crate::tui::inbox::update::selection::selection_changed(st, cx, out)
    });
}
