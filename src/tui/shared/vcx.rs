//! What a slice's view reads besides its own state.

use std::cell::Cell;

use chrono::{DateTime, Utc};
use ratatui::widgets::Block;

use super::cx::Contacts;
use super::known::Known;
use super::pane::Pane;
use super::session::Session;
use crate::tui::keymap::resolve::Keymap;
use crate::tui::theme::Theme;

#[derive(Clone, Copy)]
pub struct ViewCx<'a> {
    pub now: DateTime<Utc>,
    pub theme: &'a Theme,
    pub keys: &'a Keymap,
    pub session: &'a Session,
    pub focus: Pane,
    pub contacts: &'a dyn Contacts,
    /// What the app learned about the account (team and funnel names).
    pub known: &'a Known,
    /// Who else views or answers which customer (through a hub).
    pub colleagues: &'a super::colleagues::Colleagues,
    /// The tick count, for spinner frames.
    pub frame: u64,
    /// Set when a spinner is drawn: the loop ticks only while one shows.
    pub spun: &'a Cell<bool>,
}

impl<'a> ViewCx<'a> {
    /// The spinner's glyph for this tick; notes that a spinner showed.
    pub fn spinner(&self) -> &'static str {
        self.spun.set(true);
        crate::tui::widgets::spinner_glyph(self.frame)
    }

    /// A pane's frame, the focused one set apart (bold + marker, so it
    /// reads without colour).
    pub fn pane_block(&self, pane: Pane, title: String) -> Block<'a> {
        let focused = self.focus == pane;
        let title = if focused {
            format!("▶ {title} ")
        } else {
            format!(" {title} ")
        };
        Block::bordered().title(title).border_style(if focused {
            self.theme.border_focused()
        } else {
            self.theme.border()
        })
    }
}
