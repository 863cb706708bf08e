//! The thread slice: the selected contact's messages, newest at the
//! bottom, with a message cursor, older batches by cursor, refresh, and a
//! message's delete and details popups.
//!
//! It reads the selected contact and the layout through `Cx`, and tells the
//! root when a thread was seen or a newest page arrived (the index may
//! store it). The composer's outbox lines are handed to its view.

mod effect;
mod funnel;
mod fx;
pub mod hyperlink;
pub mod layout;
mod msg;
mod note;
mod open;
pub mod preview;
mod refresh;
mod rich;
mod selected;
mod state;
pub mod timeline;
mod timeline_rows;
mod update;
mod view;
mod viewport;

#[cfg(test)]
mod tests;

pub use effect::ThreadEffect;
pub use funnel::open_funnels;
pub use fx::perform;
pub use layout::{Kind, Layout, Row, Side, wrap};
pub use msg::{Opened, ThreadFetch, ThreadMsg};
pub use note::open_note;
pub use open::{links, open_link};
pub use preview::Previews;
pub use state::{Delivery, Geometry, Popup, Pos, Thread};
pub use update::{
    STATUS_POLL, ask_delete, fetch_refresh, on_msg, open, open_info, popup_key, scroll, scroll_to_newest,
};
pub use view::{Extras, render};

/// The slice's state.
pub type State = Thread;
