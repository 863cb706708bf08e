//! A pane's frame.

use ratatui::widgets::Block;

use crate::tui::model::{Model, Pane};
use crate::tui::theme::Theme;

/// A pane's frame, with the focused one set apart (bold + marker, so it
/// reads without colour).
pub fn pane_block<'a>(model: &Model, pane: Pane, title: String, theme: &Theme) -> Block<'a> {
    let focused = model.focus == pane;
    let title = if focused {
        format!("▶ {title} ")
    } else {
        format!(" {title} ")
    };
    Block::bordered().title(title).border_style(if focused {
        theme.border_focused()
    } else {
        theme.border()
    })
}
