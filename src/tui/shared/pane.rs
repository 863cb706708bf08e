//! The three panes of the main screen.

/// One pane; focus moves between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    List,
    Thread,
    Details,
}

impl Pane {
    pub const ALL: [Pane; 3] = [Pane::List, Pane::Thread, Pane::Details];
    pub fn title(self) -> &'static str {
        match self {
            Pane::List => "Contacts",
            Pane::Thread => "Thread",
            Pane::Details => "Details",
        }
    }
}
