//! The words of an action on many: what a run is doing, and the question
//! asked before a large one.

use crate::triage::bulk::Action;
use crate::tui::shared::known::Known;

/// For progress and the summary: what a run of `actions` is doing.
pub fn doing(actions: &[Action]) -> &'static str {
    match actions {
        [a] => a.doing(),
        _ => "changing tags",
    }
}

/// "Close 120 conversations?"
pub fn question(known: &Known, actions: &[Action], n: usize) -> String {
    match actions {
        [Action::Close] => format!("Close {n} conversations?"),
        [Action::Reopen] => format!("Reopen {n} conversations?"),
        [Action::Assign(who)] => format!("Assign {n} contacts to {}?", crate::text::sanitize_line(who)),
        [Action::Unassign] => format!("Unassign {n} contacts?"),
        [Action::Team(t)] => {
            let name = known.team_name(t).filter(|s| !s.is_empty()).unwrap_or(t);
            format!("Set the team of {n} contacts to {}?", crate::text::sanitize_line(name))
        }
        [Action::Bot(true)] => format!("Start the bot of {n} contacts?"),
        [Action::Bot(false)] => format!("Stop the bot of {n} contacts?"),
        _ => {
            let mut parts = Vec::new();
            for a in actions {
                match a {
                    Action::Tag(t) => parts.push(format!("add {}", t.join(", "))),
                    Action::Untag(t) => parts.push(format!("remove {}", t.join(", "))),
                    other => parts.push(other.verb().to_string()),
                }
            }
            let what = crate::text::sanitize_line(&parts.join("; "));
            format!("Change the tags of {n} contacts ({what})?")
        }
    }
}

/// The end of the question before one contact's owner or state write:
/// "assign it to you anyway?", "close it anyway?". `me` is this agent's
/// email.
pub fn anyway(action: &Action, me: Option<&str>) -> String {
    let mine = |who: &str| me.is_some_and(|m| crate::triage::same(m, who));
    match action {
        Action::Assign(who) if mine(who) => "assign it to you anyway?".into(),
        Action::Assign(who) => format!("assign it to {} anyway?", crate::text::sanitize_line(who)),
        other => format!("{} it anyway?", other.verb()),
    }
}

/// The question when a colleague changed the conversation since this
/// agent saw it (`what`, from `triage::owner`) or is replying to it:
/// "alex@… took it since you last saw it (it was unassigned): assign it
/// to you anyway?". Inert.
pub fn owner_question(what: &str, action: &Action, me: Option<&str>) -> String {
    format!("{}: {}", crate::text::sanitize_line(what), anyway(action, me))
}
