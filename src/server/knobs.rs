//! The fault knobs a test turns: a write applied then answered 500, an
//! answer held back (for a time, or at a gate the test opens).

use std::sync::Arc;

/// The knobs that make races reproducible: a write carried out whose
/// answer is lost, and an answer held back after it was computed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultKnobs {
    /// A held answer waits for this gate (a test's signal) instead of
    /// `hold_ms`, so the order a test needs is made, not hoped for.
    pub gate: Option<HoldGate>,
    /// Share of writes (0.0 to 1.0) that are applied and then answer 500.
    pub apply_then_fail: f64,
    /// Time a matching GET's answer is held after it was computed (0: none).
    pub hold_ms: u64,
    /// The paths held, under `/v1`: `*` stands for one segment
    /// (`/contacts/*/messages`). `None`: the contact list, `/contacts`.
    pub hold_path: Option<String>,
}

/// A test's hand on a held answer: it learns when an answer has been
/// computed and is waiting, and says when it may go.
#[derive(Debug, Clone, Default)]
pub struct HoldGate {
    inner: Arc<GateInner>,
}

#[derive(Debug)]
struct GateInner {
    /// Answers computed and waiting at the gate.
    waiting: tokio::sync::Semaphore,
    /// Permits to pass the gate.
    open: tokio::sync::Semaphore,
}

impl Default for GateInner {
    fn default() -> Self {
        GateInner {
            waiting: tokio::sync::Semaphore::new(0),
            open: tokio::sync::Semaphore::new(0),
        }
    }
}

impl PartialEq for HoldGate {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl HoldGate {
    pub fn new() -> Self {
        HoldGate::default()
    }

    /// Waits until one held answer has been computed and waits at the gate.
    pub async fn held(&self) {
        if let Ok(p) = self.inner.waiting.acquire().await {
            p.forget();
        }
    }

    /// Lets one held answer go.
    pub fn release(&self) {
        self.inner.open.add_permits(1);
    }

    pub(super) async fn pass(&self) {
        self.inner.waiting.add_permits(1);
        if let Ok(p) = self.inner.open.acquire().await {
            p.forget();
        }
    }
}

impl FaultKnobs {
    pub(super) fn active(&self) -> bool {
        self.apply_then_fail > 0.0 || self.hold_ms > 0 || self.gate.is_some()
    }

    /// Whether a GET of `path` (with its `/v1`) is held.
    pub(super) fn holds(&self, path: &str) -> bool {
        if self.hold_ms == 0 && self.gate.is_none() {
            return false;
        }
        let pattern = self.hold_path.as_deref().unwrap_or("/contacts");
        let path = path.strip_prefix("/v1").unwrap_or(path);
        let want: Vec<&str> = pattern.trim_matches('/').split('/').collect();
        let got: Vec<&str> = path.trim_matches('/').split('/').collect();
        want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| *w == "*" || w == g)
    }
}
