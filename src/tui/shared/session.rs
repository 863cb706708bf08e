//! Fixed facts about the session, set at start.

use std::path::PathBuf;

/// Fixed facts about the session.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub demo: bool,
    /// Profile or account label.
    pub account: String,
    /// The server's base URL: with `account`, the key of what is kept per
    /// account on this machine (drafts, shared with `frontdesk mcp`).
    pub base_url: String,
    /// Where this account's reply drafts are kept (`crate::drafts`);
    /// `None`: drafts last this session only (no home directory). Tests
    /// point it at a directory of their own.
    pub drafts_dir: Option<PathBuf>,
    /// The run history file (`triage::history`): runs of the CLI and of
    /// an assistant show in the history and can be undone here. `None`:
    /// the demo (its server is new each start), or no home directory.
    pub history_file: Option<PathBuf>,
    pub bell: bool,
    /// The local offset timestamps are shown in.
    pub tz: Option<crate::tui::zone::Zone>,
    /// The config file's macros (`keymap::Action::Macro` indexes them).
    pub macros: Vec<crate::macros::Macro>,
    /// The team hub, when one is configured: snoozes are kept there.
    pub hub: Option<crate::hubclient::HubClient>,
    /// This agent's name on the hub (`GET /hub/v1/whoami`), when known.
    /// Text from a server: inert before it is shown.
    pub agent: Option<String>,
    /// `assign_on_reply`: this agent's reply to an Unassigned conversation
    /// assigns it to them (through the checked owner write).
    pub assign_on_reply: bool,
}
