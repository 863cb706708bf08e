//! The same tools served by a team hub's `/mcp` (`crate::hub::mcp`)
//! rather than by `frontdesk mcp` on the agent's machine: who they act
//! as, and the little that differs. Reads come from the hub's own index,
//! writes go through the hub's forwarding (audited under the agent), and
//! the history is the agent's part of the hub's audit.

use serde_json::Value;

/// This agent's writes from the hub's audit, newest first, each in
/// `history`'s shape (`id`, `at`, `action`, `contacts`…).
pub type Runs = dyn Fn() -> Result<Vec<Value>, String> + Send + Sync;

/// The hub agent a `/mcp` session acts as.
pub struct Remote {
    /// The agent's name in the hub (its audit entries carry it).
    pub agent: String,
    /// Reads the agent's writes from the hub's audit.
    pub history: Box<Runs>,
}

/// Tools `frontdesk mcp` offers and the hub does not: a draft is kept on
/// the agent's own machine, where its composer reads it.
pub const LOCAL_ONLY: &[&str] = &["draft_reply"];

impl Remote {
    /// Why `name` is refused through the hub, if it is.
    pub fn refuses(&self, name: &str, writes: bool) -> Option<String> {
        if super::tools::WRITES.contains(&name) && !writes {
            return Some(format!(
                "`{name}` changes the account: through the hub it needs an admin's token (the hub's admin \
                 runs `frontdesk hub agents role {} admin`)",
                self.agent
            ));
        }
        LOCAL_ONLY.contains(&name).then(|| {
            format!(
                "`{name}` keeps its draft on the agent's own machine: run `frontdesk mcp` there to draft; \
                 through the hub it is not offered"
            )
        })
    }
}
