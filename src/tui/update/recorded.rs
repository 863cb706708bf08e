//! What undo keeps once a write is answered: the act slice records it
//! reading the contacts through a `Cx`, so the root calls it with `call!`.
//! What is remembered before the write goes out is in `record.rs`.

use crate::api::{BotStatus, Contact};
use crate::triage::bulk::Action;
use crate::tui::act::{self, Run};
use crate::tui::effect::Effect;
use crate::tui::model::Model;
use crate::tui::msg::ReqId;

use super::call::call;

/// The single write `id` succeeded with `after` (already in the list;
/// `before` as the service showed it just before, when read); false when
/// `id` was not one undo follows.
pub(crate) fn wrote(model: &mut Model, id: ReqId, before: Option<&Contact>, after: &Contact) -> bool {
    let mut fx = Vec::new();
    call!(model, &mut fx, act, std::convert::identity, |st, cx, out| act::wrote(
        st, cx, out, id, before, after
    ))
}

/// The bot write `id` on `uuid` succeeded: the bot now runs (or not).
pub(crate) fn bot_wrote(model: &mut Model, id: ReqId, uuid: &str, running: bool) -> bool {
    let mut fx = Vec::new();
    call!(model, &mut fx, act, std::convert::identity, |st, cx, out| {
        act::bot_wrote(st, cx, out, id, uuid, running)
    })
}

/// A run on many has ended: an action becomes one entry; an undo marks
/// what it took back (and the bot panel shows what it put back).
pub(crate) fn record_run(model: &mut Model, run: &Run, fx: &mut Vec<Effect>) {
    if run.purpose == act::Purpose::Undo {
        bot_panel_follows(model, run);
    }
    call!(model, fx, act, Effect::from, |st, cx, out| {
        act::record_run(st, cx, out, run)
    });
}

/// The bot panel shows the state an undo put back (the list's bot state
/// is kept by the run itself).
fn bot_panel_follows(model: &mut Model, run: &Run) {
    let panel = &mut model.details.bot;
    for (job, _) in &run.ok {
        if let Action::Bot(on) = job.action
            && panel.contact.as_deref() == Some(job.uuid.as_str())
            && let Some(bot) = panel.bot.as_mut()
        {
            bot.status = if on { BotStatus::Started } else { BotStatus::Ended };
        }
    }
}
