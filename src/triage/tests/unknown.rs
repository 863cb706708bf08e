//! A conversation whose state is unknown (a list's contact carries no
//! `closedAt`, issue 33) is neither open nor closed to the triage paths:
//! what takes a bulk close back, whether the run changed anything, and
//! what an undo would write are never read from it as if it were open.

use crate::api::Contact;
use crate::triage::bulk::{Action, Reverse};
use crate::triage::history::unchanged;
use crate::triage::undo::plan_undo;

fn listed() -> Contact {
    Contact {
        uuid: "u1".into(),
        name: "Ana".into(),
        state_unknown: true,
        ..Default::default()
    }
}

fn closed() -> Contact {
    Contact {
        closed_at: Some(chrono::Utc::now()),
        state_unknown: false,
        ..listed()
    }
}

fn open() -> Contact {
    Contact {
        state_unknown: false,
        ..listed()
    }
}

#[test]
fn a_bulk_close_of_an_unknown_state_is_not_taken_back_as_a_reopen() {
    // Read as open, its undo would reopen a conversation that may have
    // been closed all along.
    assert_eq!(
        Action::Close.reverse(&listed(), None),
        Reverse::Cannot("whether the conversation was open before is not known")
    );
    assert!(matches!(Action::Reopen.reverse(&listed(), None), Reverse::Cannot(_)));
    // Known states still reverse.
    assert_eq!(Action::Close.reverse(&open(), None), Reverse::Do(Action::Reopen));
    assert_eq!(Action::Close.reverse(&closed(), None), Reverse::Nothing);
}

#[test]
fn a_run_from_an_unknown_state_is_never_counted_a_no_op() {
    // Read as open, a reopen that left it open would count as "already so".
    assert!(!unchanged(&Action::Reopen, &listed(), &open()));
    assert!(!unchanged(&Action::Close, &listed(), &closed()));
    assert!(unchanged(&Action::Close, &closed(), &closed()));
}

#[test]
fn an_undo_of_a_close_from_an_unknown_state_writes_nothing_and_says_why() {
    let plan = plan_undo(&Action::Close, &listed(), &closed(), &closed());
    assert!(plan.revert.is_empty(), "{plan:?}");
    assert_eq!(
        plan.cannot,
        vec!["whether the conversation was open before is not known"]
    );
    let plan = plan_undo(&Action::Close, &open(), &closed(), &closed());
    assert_eq!(plan.revert, vec![Action::Reopen]);
}
