//! The server could not be reached at start: the screen opens anyway and
//! the status bar says so ("cannot reach HOST, retrying in N s: …"),
//! counting down to the next try. Each try is a refresh (the list's first
//! page, or the index's pass); the wait doubles up to [`MAX_WAIT`]. It
//! ends by itself once contacts arrive (or the list loads, empty).

use chrono::{DateTime, Duration, Utc};

use super::model::{Model, ToastKind};
use super::msg::Msg;

/// The first wait before trying again.
pub const FIRST_WAIT: Duration = Duration::seconds(2);
/// The longest wait between tries.
pub const MAX_WAIT: Duration = Duration::seconds(30);

/// Trying to reach the server again until it answers.
#[derive(Debug, Clone)]
pub struct Reconnect {
    host: String,
    error: String,
    wait: Duration,
    next: DateTime<Utc>,
    /// The status text last shown (a new one calls for a frame).
    shown: String,
}

impl Reconnect {
    /// After a failure at `now`: the first try in [`FIRST_WAIT`].
    pub fn new(host: &str, error: &str, now: DateTime<Utc>) -> Reconnect {
        Reconnect {
            host: crate::text::sanitize_line(host),
            error: error.to_string(),
            wait: FIRST_WAIT,
            next: now + FIRST_WAIT,
            shown: String::new(),
        }
    }

    /// Whether the server has answered since: contacts came in, or the list
    /// loaded without an error.
    pub fn recovered(model: &Model) -> bool {
        !model.list.store.is_empty() || (model.list.error.is_none() && model.list.paging.loading.is_none())
    }

    /// The status line now.
    pub fn text(&self, now: DateTime<Utc>) -> String {
        let secs = (self.next - now).num_seconds();
        let when = if secs >= 1 {
            format!("retrying in {secs} s")
        } else {
            "retrying now".to_string()
        };
        // The countdown first: the error may be cut at the screen's edge.
        format!(
            "cannot reach {}, {when}: {}",
            self.host,
            crate::text::sanitize_line(&self.error)
        )
    }

    /// After a batch of messages: keeps the status toast current, and says
    /// when a try is due (the message to send in). `None` once recovered:
    /// the caller drops the reconnect.
    pub fn step(&mut self, model: &mut Model) -> Option<Step> {
        let now = model.now;
        if Self::recovered(model) {
            self.clear(model);
            model
                .status
                .push(ToastKind::Success, format!("connected to {}", self.host), now);
            return None;
        }
        if let Some(e) = model.list.error.as_ref() {
            self.error.clone_from(e);
        }
        let mut due = None;
        if now >= self.next {
            self.wait = (self.wait * 2).min(MAX_WAIT);
            self.next = now + self.wait;
            due = Some(Msg::RefreshDue);
        }
        let text = self.text(now);
        let changed = text != self.shown;
        if changed {
            self.clear(model);
            // Shown until the next second's text replaces it.
            model.status.push_for(ToastKind::Error, text.clone(), now, 2);
            self.shown = text;
        }
        Some(Step { due, changed })
    }

    /// How long the loop may sleep: the countdown moves each second.
    pub fn sleep_for(&self, now: DateTime<Utc>) -> std::time::Duration {
        let ms = 1000 - i64::from(now.timestamp_subsec_millis() % 1000);
        std::time::Duration::from_millis(ms.clamp(1, 1000) as u64)
    }

    fn clear(&self, model: &mut Model) {
        let mine = format!("cannot reach {}, ", self.host);
        model.status.toasts.retain(|t| !t.text.starts_with(&mine));
    }
}

/// What one step asks of the loop.
#[derive(Debug)]
pub struct Step {
    /// A try is due: send this in.
    pub due: Option<Msg>,
    /// The status text changed: draw.
    pub changed: bool,
}

#[cfg(test)]
mod tests;
