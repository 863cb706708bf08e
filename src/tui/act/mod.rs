//! The act slice: writes on existing contacts, one or many, and taking
//! them back. Every write is a run of `triage::bulk::Action`s through one
//! effect (`Effect::Apply`) and one answer (`Msg::Applied`): one contact's
//! write is a run of one, an action on marks a run of many, an undo the
//! reverse run. Here: what is in flight (forms, single writes, the run),
//! drafts of failed forms, the history undo reads, a create's lookup, and
//! the overlays that show them (the question, the summary, the history).

mod bulk;
mod fx;
mod history;
mod record;
mod run;
mod runs;
mod state;
mod undo;
mod view;
mod words;

#[cfg(test)]
pub(crate) mod tests;

pub use bulk::{cancel, ended, job_done, start, start_macro, summary, take_job};
pub use fx::{ActEffect, Answer, last_owner_change, perform};
pub use history::{Cursor, Entry, History, Item, KEEP, Offer, Pending, WINDOW_SECS};
pub use record::{bot_wrote, own_writes, record_run, will_write, write_failed, wrote};
pub use run::{
    CONFIRM_ABOVE, Confirm, Counts, Guard, Hub, IN_FLIGHT, Job, ManyForm, Named, Purpose, Run, Single, Summary,
};
pub use runs::{RunsEffect, RunsMsg, load as load_runs, merge as merge_runs, perform as perform_runs};
pub use state::{Act, FormKind, WriteKind};
pub use undo::{undo_entry, undo_last};
pub use view::{render_confirm, render_history, render_summary};
pub use words::{anyway, doing, owner_question, question};

/// Whether an entry of the history can be taken back now.
pub use history::State as UndoState;

/// The slice's state.
pub type State = Act;
