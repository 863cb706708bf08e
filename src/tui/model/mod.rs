//! The whole state of the app. Only `update` changes it; views only read it.

pub(crate) use crate::tui::shared::catalog;
pub(crate) mod layer;
pub(crate) mod overlay;
mod state;
pub use crate::tui::shared::pane;
pub(crate) use crate::tui::shared::status;

pub use crate::tui::details::{Availability, BotPanel, Details};
pub use crate::tui::inbox::contact_list::{ContactList, PendingWrite, Search};
pub use crate::tui::shared::known::Known;
pub use crate::tui::thread::Thread;
pub use catalog::Catalog;
pub use layer::Top;
pub use overlay::{FormKind, Overlay};
pub use pane::Pane;
pub use status::{StatusBar, Toast, ToastKind};

pub use crate::tui::shared::layout::{Areas, WIDE, areas};
pub use crate::tui::shared::session::Session;
pub use state::Model;
