//! The index worker's reports, handed to the inbox
//! (`inbox/update/index.rs`); a sync that brought the open conversation a
//! message fetches its thread again.

use super::call::call;
use super::inbox::inbox;
use crate::tui::effect::Effect;
use crate::tui::inbox::update::index as ix;
use crate::tui::model::{Model, ToastKind};
use crate::tui::msg::index::{HubNote, IndexMsg};

pub(crate) fn on_msg(model: &mut Model, msg: IndexMsg, fx: &mut Vec<Effect>) {
    match msg {
        IndexMsg::Loaded {
            generation,
            contacts,
            done,
        } => inbox!(model, fx, |st, cx, out| ix::loaded(
            st, cx, out, generation, contacts, done
        )),
        IndexMsg::Changed(changes) => {
            if inbox!(model, fx, |st, cx, out| ix::changed(st, cx, out, changes)) {
                call!(model, fx, thread, Effect::Thread, |st, _cx, out| {
                    crate::tui::thread::fetch_refresh(st, out)
                });
            }
        }
        IndexMsg::Previews(previews) => ix::previews(&mut model.list, &mut model.sync, previews),
        IndexMsg::Status(status) => {
            let was_indexing = model.sync.status.as_ref().is_some_and(|s| s.indexing.is_some());
            let indexed = was_indexing && status.indexing.is_none();
            ix::status(&mut model.list, &mut model.sync, status);
            // Every search row written, or the last search found the index
            // busy: the search on screen is asked again, now whole.
            if indexed || model.sync.index_busy {
                inbox!(model, fx, |st, _cx, out| ix::search_again(st, out));
            }
        }
        IndexMsg::Problem(text) => {
            let now = model.now;
            model.status.push(ToastKind::Error, text, now);
        }
        IndexMsg::Notice(text) => {
            let now = model.now;
            model.status.push(ToastKind::Info, text, now);
        }
        IndexMsg::SearchBusy(busy) => model.sync.index_busy = busy,
        IndexMsg::Hub(HubNote::Me(name)) => crate::tui::hub::me(&mut model.colleagues, name),
        IndexMsg::Hub(HubNote::Event(event)) => {
            // A colleague's snooze: read the team's snoozes now, not at
            // the next 3 s look.
            if let crate::hubclient::HubEvent::SnoozeChanged(_) = *event {
                model.slices.snooze.checked = None;
                super::slices::tick(model, fx);
            }
            super::owner::event_timeline(model, &event, fx);
            crate::tui::hub::event(&mut model.colleagues, &event, model.now)
        }
    }
}

/// True when the list shows the index (no API filter in force).
pub(crate) fn backs_list(model: &Model) -> bool {
    ix::backs_list(&model.list, &model.sync)
}

/// True when the sync passes see the open conversation's new messages.
pub(crate) fn open_thread_followed(model: &Model) -> bool {
    ix::open_thread_followed(&model.list, model.thread.contact.as_deref())
}

/// Asks the worker for the last messages of the rows about to show.
pub(crate) fn want_previews(model: &mut Model, fx: &mut Vec<Effect>) {
    inbox!(model, fx, |st, cx, out| ix::want_previews(st, cx, out));
}
