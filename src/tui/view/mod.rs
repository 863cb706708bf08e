//! Drawing: reads the model, never changes it. Every string from the server
//! goes through `text::sanitize*` before it reaches a cell.

pub(crate) mod overlay;
mod pane;
pub(crate) mod status;

#[cfg(test)]
pub(crate) mod tests;

use ratatui::Frame;

use super::compose;
use super::details;
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
        let sending = |u: &str| model.act.bulk.as_ref().is_some_and(|run| run.sending(u));
        crate::tui::inbox::render(model.inbox(), &model.vcx(theme), frame, r, &sending);
    }
    if let Some(r) = a.thread {
        let shown = model.thread.contact.as_deref();
        let (r, c) = compose::split(&model.compose, shown, r);
        crate::tui::thread::render(&model.thread, &model.vcx(theme), frame, r, |w| {
            crate::tui::thread::Extras {
                marks: compose::marks(&model.compose),
                outbox: compose::outbox_lines(&model.compose, shown, &model.thread.messages, w, model.session.tz),
            }
        });
        if let Some(c) = c {
            compose::render(&model.compose, &model.vcx(theme), shown, frame, c);
        }
    }
    if let Some(r) = a.details {
        details::render(
            &model.details,
            &model.vcx(theme),
            model.thread.contact.as_deref(),
            frame,
            r,
        );
    }
    if let Some(r) = a.bot {
        details::render_bot(&model.details, &model.vcx(theme), frame, r);
    }
    if let Some(r) = a.availability {
        details::render_availability(&model.details.me, &model.vcx(theme), frame, r);
    }
    crate::tui::slices::render(&model.slices, &model.vcx(theme), frame, &a);
    if let Some(r) = a.toast {
        status::toast(model, frame, r, theme);
    }
    status::bar(model, frame, a.status, theme);
    // The account overlay covers the screen above the status line.
    let (full, bottom) = (frame.area(), if model.status.current().is_some() { 2 } else { 1 });
    let above = ratatui::layout::Rect::new(full.x, full.y, full.width, full.height.saturating_sub(bottom));
    crate::tui::account::render(&model.account, &model.vcx(theme), frame, above, &model.catalog);
    overlay::render(model, frame, theme);
    // Drawn only while it takes the keys (its composer shows, nothing
    // covers it): see `Model::top`.
    if model.top() == super::model::Top::ComposeStage {
        compose::render_overlay(
            &model.compose,
            &model.vcx(theme),
            model.thread.contact.as_deref(),
            frame,
        );
    }
    crate::tui::overlays::settle_wide(frame.buffer_mut());
}

pub use crate::tui::widgets::{SPINNER, clean, fit, local, relative, stamp};
pub use pane::pane_block;
