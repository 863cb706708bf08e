//! The composer's behaviour, one file per concern: its keys (open, type,
//! close), sending (the send, its answer, the status polls, the 24-hour
//! rule), templates (the picker and the values form) and drafts (kept on
//! disk, restored, discarded), canned replies (the `/` picker) and
//! `$EDITOR` on the draft.

mod attach;
mod drafts;
mod editor;
mod keys;
mod macro_message;
mod placeholders;
mod send;
mod snippets;
mod templates;

pub use drafts::{BY_AGENT, flush, startup, tick};
pub use keys::{key, open, paste};
pub use macro_message::{fill_for, fill_in, run_action, send_for};
pub use placeholders::{fill, placeholders};
pub use send::{NOT_OFFERED, TEMPLATE_HINT, on_msg};
pub use templates::templates_arrived;
