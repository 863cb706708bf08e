//! The compose slice: the reply composer under the thread, drafts per
//! contact (kept on disk in `crate::drafts`, the store `frontdesk mcp`
//! writes an assistant's drafts to, and badged `draft` on their rows),
//! sending (text or a template with its values), the delivery status
//! polls of messages sent here and the 24-hour rule.
//!
//! It reads the selected contact, the contacts and the catalog's templates
//! through `Cx`, and tells the root when a message goes out
//! (`Note::Sending`: the thread scrolls to its newest), when the API
//! accepted it (`Note::Sent`: the list row follows) and when the templates
//! must be fetched (`Note::Fetch`), and puts the `draft` badge on rows
//! (`Note::Badge`). The root hands its outbox lines and delivery marks to
//! the thread's view, lists the drafts at start, and flushes the open draft
//! when the app quits (the runner writes drafts in order and waits for the
//! last before the exit). Canned replies (`/`, `crate::snippets`, read at
//! start) and `$EDITOR` (`C-e`; the app loop runs `editor` with the
//! terminal handed over) have a file each under `update/`.

pub mod attach;
pub mod editor;
mod fx;
mod msg;
mod state;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use fx::{ComposeEffect, DRAFT_PAUSE, MAX_POLLS, POLL_EVERY, perform, perform_drafts};
pub use msg::ComposeMsg;
pub use state::{Compose, DRAFT, Outgoing, Stage, new_area};
pub use update::{
    BY_AGENT, NOT_OFFERED, TEMPLATE_HINT, fill, fill_for, fill_in, flush, key, on_msg, open, paste, placeholders,
    run_action, send_for, startup, templates_arrived, tick,
};
pub use view::{floats, marks, outbox_lines, render, render_overlay, split};

/// The slice's state.
pub type State = Compose;
