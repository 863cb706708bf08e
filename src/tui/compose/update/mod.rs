//! The composer's behaviour, one file per concern: its keys (open, type,
//! close), sending (the send, its answer, the status polls, the 24-hour
//! rule) and templates (the picker and the values form). Canned replies,
//! drafts and `$EDITOR` land beside them.

mod keys;
mod placeholders;
mod send;
mod templates;

pub use keys::{key, open, paste};
pub use placeholders::{fill, placeholders};
pub use send::{NOT_OFFERED, TEMPLATE_HINT, on_msg};
pub use templates::templates_arrived;
