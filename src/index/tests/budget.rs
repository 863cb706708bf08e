//! The shared request budget: clones spend from one bucket, and background
//! work waits while the agent's own request is in flight. Real time, short
//! waits; only the order of events is asserted.

use std::time::Duration;

use crate::index::sync::{Budget, Foreground};

/// Whether `take` finished before a timer of `wait`.
async fn takes_before(budget: &Budget, wait: Duration) -> bool {
    tokio::select! {
        () = budget.take() => true,
        () = tokio::time::sleep(wait) => false,
    }
}

#[tokio::test]
async fn clones_spend_from_one_bucket() {
    // One token to start with, the next in a second.
    let a = Budget::new(1.0);
    let b = a.clone();
    assert!(takes_before(&a, Duration::from_secs(5)).await, "the first token");
    assert!(
        !takes_before(&b, Duration::from_millis(200)).await,
        "the clone finds the bucket empty"
    );
    let other = Budget::new(1.0);
    assert!(
        takes_before(&other, Duration::from_secs(5)).await,
        "another budget has its own"
    );

    b.back_off(Some(Duration::from_secs(30)));
    assert_eq!(a.rate(), 0.5, "a 429 seen through one clone slows both");
    assert!(a.paused_for().is_some(), "and pauses both");
    assert!(other.paused_for().is_none());
}

#[tokio::test]
async fn background_work_waits_while_the_agents_request_runs() {
    let foreground = Foreground::default();
    let budget = Budget::new(0.0).yielding_to(foreground.clone());
    assert!(takes_before(&budget, Duration::from_secs(2)).await, "nothing in flight");

    let guard = foreground.enter();
    assert!(foreground.busy());
    let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = order.clone();
    let background = tokio::spawn(async move {
        budget.take().await;
        log.lock().unwrap().push("background request");
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    order.lock().unwrap().push("agent's request done");
    drop(guard);
    assert!(!foreground.busy());
    background.await.unwrap();
    assert_eq!(*order.lock().unwrap(), ["agent's request done", "background request"]);
}

#[tokio::test]
async fn a_stuck_foreground_request_does_not_stop_background_work_for_good() {
    let foreground = Foreground::default();
    let budget = Budget::new(0.0).yielding_to(foreground.clone());
    let _stuck = foreground.enter();
    assert!(takes_before(&budget, Duration::from_secs(60)).await);
}
