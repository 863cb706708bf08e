//! What a run on many would do before it is made: the contacts already as
//! the action leaves them (no-ops, as `history` counts them), and what the
//! service would refuse. The service refuses a tag not created in the
//! account's settings and an email that is no collaborator of the account
//! ("unknown tag", "unknown collaborator"); the API lists neither, so what
//! no contact of the index carries is said as a likely refusal.

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::triage::same;

/// The contacts `action` would change, and how many are no-ops.
pub fn split<'a>(action: &Action, targets: &'a [Contact]) -> (Vec<&'a Contact>, usize) {
    let (changing, already): (Vec<&Contact>, Vec<&Contact>) = targets.iter().partition(|c| !already_so(action, c));
    (changing, already.len())
}

fn has(c: &Contact, tag: &str) -> bool {
    c.tags.iter().any(|t| same(t, tag))
}

/// Whether `c` is already as `action` leaves it. A conversation whose
/// state is unknown (a list's contact carries none) is not: the write
/// reads it just before, and a close of one already closed settles as a
/// no-op then.
pub fn already_so(action: &Action, c: &Contact) -> bool {
    use crate::api::ConversationState as S;
    match action {
        Action::Close => c.state() == S::Closed,
        Action::Reopen => c.state() == S::Open,
        Action::Assign(who) => c.assigned_user.as_deref().is_some_and(|a| same(a, who)),
        Action::Unassign => c.assigned_user.as_deref().is_none_or(|a| a.trim().is_empty()),
        Action::Tag(tags) => tags.iter().all(|t| has(c, t)),
        Action::Untag(tags) => !tags.iter().any(|t| has(c, t)),
        Action::Team(t) => c.team_uuid() == Some(t.as_str()),
        _ => false,
    }
}

/// What the service would likely refuse, in words, judged from every
/// contact of the index (`all`) and the agent's own email (`me`).
pub fn refusals(action: &Action, all: &[Contact], me: Option<&str>) -> Vec<String> {
    match action {
        Action::Tag(tags) => tags
            .iter()
            .filter(|t| !all.iter().any(|c| has(c, t)))
            .map(|t| {
                format!(
                    "no contact has the tag \"{}\": the service refuses a tag not created in the account's \
                     settings (unknown tag), so every write would fail unless it exists there",
                    crate::text::sanitize_line(t)
                )
            })
            .collect(),
        Action::Assign(who) => {
            let known = me.is_some_and(|m| same(m, who))
                || all
                    .iter()
                    .any(|c| c.assigned_user.as_deref().is_some_and(|a| same(a, who)));
            if known {
                Vec::new()
            } else {
                vec![format!(
                    "no contact is assigned to {} and it is not your email: the service refuses an email that \
                     is no collaborator of the account (unknown collaborator)",
                    crate::text::sanitize_line(who)
                )]
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(tags: &[&str], closed: bool) -> Contact {
        Contact {
            tags: tags.iter().map(|t| t.to_string()).collect(),
            closed_at: closed.then(chrono::Utc::now),
            ..Default::default()
        }
    }

    #[test]
    fn an_untag_of_an_absent_tag_and_a_close_of_a_closed_one_are_no_ops() {
        let targets = vec![c(&["vip"], false), c(&[], false), c(&["VIP"], true)];
        let (changing, no_ops) = split(&Action::Untag(vec!["vip".into()]), &targets);
        assert_eq!((changing.len(), no_ops), (2, 1));
        let (changing, no_ops) = split(&Action::Close, &targets);
        assert_eq!((changing.len(), no_ops), (2, 1));
        let (changing, no_ops) = split(&Action::Tag(vec!["vip".into()]), &targets);
        assert_eq!((changing.len(), no_ops), (1, 2));
    }

    #[test]
    fn a_tag_nobody_has_and_an_unknown_collaborator_are_said_before_the_run() {
        let all = vec![c(&["vip"], false)];
        let said = refusals(&Action::Tag(vec!["vip".into(), "nosuchtag".into()]), &all, None);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].contains("\"nosuchtag\"") && said[0].contains("unknown tag"),
            "{}",
            said[0]
        );
        let said = refusals(
            &Action::Assign("ghost@example.com".into()),
            &all,
            Some("me@example.com"),
        );
        assert!(said[0].contains("unknown collaborator"), "{said:?}");
        assert!(refusals(&Action::Assign("me@example.com".into()), &all, Some("me@example.com")).is_empty());
    }
}

#[cfg(test)]
mod unknown_state {
    use super::*;

    #[test]
    fn a_dry_run_counts_no_unknown_state_as_already_so() {
        let listed = Contact {
            uuid: "u1".into(),
            state_unknown: true,
            ..Default::default()
        };
        // Read as open it would be "already so" for a reopen, and a close
        // of it would be guessed; neither is known until the write reads it.
        assert!(!already_so(&Action::Reopen, &listed));
        assert!(!already_so(&Action::Close, &listed));
        let (changing, no_ops) = split(&Action::Reopen, std::slice::from_ref(&listed));
        assert_eq!((changing.len(), no_ops), (1, 0));
        let open = Contact {
            state_unknown: false,
            ..listed
        };
        assert!(already_so(&Action::Reopen, &open));
    }
}
