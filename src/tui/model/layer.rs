//! What is on top of the screen. The key router and the view both ask
//! here, so the layer that takes a key is always the one the agent sees:
//! when something takes a layer off the screen (the selection moved to
//! another contact, a refresh, a view change, a narrow screen's pane
//! switch), the keys go back to what shows instead.

use super::state::Model;
use crate::tui::compose;
use crate::tui::shared::pane::Pane;

/// The layer that takes keys, from the top of the drawing down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Top {
    /// Help, the palette, a form, a confirmation: drawn over everything.
    Overlay,
    /// The composer's template or snippet picker, values or preview:
    /// drawn over the screen, only while its composer shows.
    ComposeStage,
    /// The account overlay (`A`).
    Account,
    /// A slice's screen or picker (snooze, reports).
    Slice,
    /// The delete confirmation or message info, over the thread pane.
    Popup,
    /// The composer under the thread it is open for.
    Composer,
    /// The search line, in the list pane.
    Search,
    /// The panes: the keymap's actions.
    Panes,
}

impl Model {
    /// Whether the thread pane is on screen.
    pub fn thread_shown(&self) -> bool {
        self.areas().thread.is_some()
    }

    /// Whether the composer is on screen: it is open for the contact whose
    /// thread shows, and the thread pane shows.
    pub fn composer_shown(&self) -> bool {
        self.compose.is_open() && self.compose.open == self.thread.contact && self.thread_shown()
    }

    /// The layer on top of the screen: the one that takes the next key.
    pub fn top(&self) -> Top {
        if self.overlay.is_some() {
            Top::Overlay
        } else if self.composer_shown() && compose::floats(&self.compose) {
            Top::ComposeStage
        } else if self.account.is_some() {
            Top::Account
        } else if self.slices.snooze.picker.is_some() || self.slices.notify.picker.is_some() || self.slices.reports.open
        {
            Top::Slice
        } else if self.thread.popup.is_some() && self.thread_shown() {
            Top::Popup
        } else if self.composer_shown() {
            Top::Composer
        } else if self.list.view.search.as_ref().is_some_and(|s| s.editing)
            && (self.is_wide() || self.focus == Pane::List)
        {
            Top::Search
        } else {
            Top::Panes
        }
    }
}
