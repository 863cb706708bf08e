//! Fixed facts about the session, set at start.

/// Fixed facts about the session.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub demo: bool,
    /// Profile or account label.
    pub account: String,
    pub bell: bool,
    /// The local offset timestamps are shown in.
    pub tz: Option<crate::tui::zone::Zone>,
}
