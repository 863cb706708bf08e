//! The act slice's tests: one contact's writes (actions.rs), runs on many
//! (bulk.rs), undo and the history (undo.rs), through the root's update,
//! and their frames (view/).

mod actions;
mod bulk;
mod conflicts;
mod history_close;
mod macro_send;
mod macros;
mod no_op;
mod owner;
mod runs;
mod timeline;
pub(crate) mod undo;
mod undo_send;
pub(crate) mod view;

use crossterm::event::KeyCode;

use crate::api::ApiError;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::{FormKind, Model, Overlay};
use crate::tui::msg::{Msg, WriteKind};
use crate::tui::update::tests::*;
use crate::tui::update::update;
