//! What the Reports screen shows and how it is set.

use crate::report::{GroupBy, Report};
use crate::tui::shared::ReqId;

/// The periods `p` steps through, in days.
pub const SPANS: [i64; 4] = [7, 14, 30, 90];

#[derive(Debug, Default)]
pub struct Reports {
    /// Whether the screen covers the inbox.
    pub open: bool,
    /// Index into [`SPANS`].
    pub span: usize,
    /// The grouping `g` steps through: none, agent, team, tag.
    pub by: Option<GroupBy>,
    /// The group whose charts are drawn (0: all conversations).
    pub group: usize,
    /// The last report computed, kept while a new one is computed.
    pub report: Option<Report>,
    /// The computation in flight.
    pub loading: Option<ReqId>,
    /// Why the last computation failed (inert text).
    pub error: Option<String>,
}

impl Reports {
    /// The period's length in days.
    pub fn days(&self) -> i64 {
        SPANS.get(self.span).copied().unwrap_or(SPANS[0])
    }

    /// The grouping after `by`: none → agent → team → tag → none.
    pub fn next_by(by: Option<GroupBy>) -> Option<GroupBy> {
        match by {
            None => Some(GroupBy::Agent),
            Some(GroupBy::Agent) => Some(GroupBy::Team),
            Some(GroupBy::Team) => Some(GroupBy::Tag),
            Some(GroupBy::Tag) => None,
        }
    }

    /// How the grouping reads in the title and footer.
    pub fn by_label(by: Option<GroupBy>) -> &'static str {
        match by {
            None => "all",
            Some(GroupBy::Agent) => "agent",
            Some(GroupBy::Team) => "team",
            Some(GroupBy::Tag) => "tag",
        }
    }
}
