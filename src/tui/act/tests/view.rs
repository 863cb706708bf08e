//! The act slice's frames: marks and runs on many, the undo toast and the
//! history overlay.

mod bulk;
pub(crate) mod undo;

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::theme::Theme;
use crate::tui::update::update;
use crate::tui::view::tests::{draw, rich};
