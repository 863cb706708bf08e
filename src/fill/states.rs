//! The conversations' states (open or closed) the list leaves unknown,
//! learnt a few at a time after each pass.

use crate::index::sync;

/// States (open or closed) asked for after each pass over the list.
const STATES_PER_PASS: usize = 25;

/// Asks for the state of the newest contacts the list left unknown (a
/// failure waits for the next pass: the list's own errors are said).
pub(super) async fn learn_states(
    client: &crate::api::Client,
    index: &mut impl crate::index::IndexAccess,
    budget: &sync::Budget,
) {
    let mut tried = std::collections::HashSet::new();
    let _ = sync::learn_states(client, index, budget, STATES_PER_PASS, &mut tried).await;
}
