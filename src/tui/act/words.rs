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
