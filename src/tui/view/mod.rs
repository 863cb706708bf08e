//! Drawing: reads the model, never changes it. Every string from the server
//! goes through `text::sanitize*` before it reaches a cell.

pub(crate) mod account;
pub(crate) mod compose;
pub(crate) mod details;
pub(crate) mod help;
pub(crate) mod history;
mod many;
pub(crate) mod overlay;
mod pane;
pub(crate) mod status;

#[cfg(test)]
pub(crate) mod tests;

use ratatui::Frame;

use super::model::Model;
use super::theme::Theme;

/// Draws the whole screen.
pub fn view(model: &Model, frame: &mut Frame, theme: &Theme) {
    let a = super::model::areas(
        frame.area(),
        model.is_wide(),
        model.focus,
        model.status.current().is_some(),
    );
    if let Some(r) = a.tabs {
        status::tabs(model, frame, r, theme);
    }
    if let Some(r) = a.list {
        let sending = |u: &str| model.bulk.as_ref().is_some_and(|run| run.sending(u));
        crate::tui::inbox::render(model.inbox(), &model.vcx(theme), frame, r, &sending);
    }
    if let Some(r) = a.thread {
        let (r, c) = compose::split(model, r);
        crate::tui::thread::render(&model.thread, &model.vcx(theme), frame, r, |w| {
            crate::tui::thread::Extras {
                marks: compose::marks(model),
                outbox: compose::outbox_lines(model, w, model.session.tz),
            }
        });
        if let Some(c) = c {
            compose::render(model, frame, c, theme);
        }
    }
    if let Some(r) = a.details {
        details::render(model, frame, r, theme);
    }
    if let Some(r) = a.bot {
        details::render_bot(model, frame, r, theme);
    }
    if let Some(r) = a.availability {
        details::render_availability(model, frame, r, theme);
    }
    if let Some(r) = a.toast {
        status::toast(model, frame, r, theme);
    }
    status::bar(model, frame, a.status, theme);
    account::render(model, frame, theme);
    overlay::render(model, frame, theme);
    compose::render_overlay(model, frame, theme);
    overlay::settle_wide(frame.buffer_mut());
}

pub use crate::tui::widgets::{SPINNER, clean, fit, local, relative, stamp};
pub use pane::pane_block;
