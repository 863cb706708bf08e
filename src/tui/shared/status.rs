//! Toasts: short-lived messages in the status bar.

use chrono::{DateTime, Duration, Utc};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToastKind {
    Info,
    Success,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    pub kind: ToastKind,
    pub text: String,
    pub until: DateTime<Utc>,
}

#[derive(Debug, Clone, Default)]
pub struct StatusBar {
    pub toasts: Vec<Toast>,
}

impl StatusBar {
    pub fn push(&mut self, kind: ToastKind, text: impl Into<String>, now: DateTime<Utc>) {
        // Errors stay long enough to read.
        let secs = if kind == ToastKind::Error { 10 } else { 4 };
        self.push_for(kind, text, now, secs);
    }
    /// A toast that stays `secs` seconds (an undo offer stays as long as
    /// `u` works).
    pub fn push_for(&mut self, kind: ToastKind, text: impl Into<String>, now: DateTime<Utc>, secs: i64) {
        self.toasts.push(Toast {
            kind,
            text: text.into(),
            until: now + Duration::seconds(secs),
        });
        if self.toasts.len() > 3 {
            self.toasts.remove(0);
        }
    }
    pub fn expire(&mut self, now: DateTime<Utc>) {
        self.toasts.retain(|t| t.until > now);
    }
    /// The toast to show: the newest.
    pub fn current(&self) -> Option<&Toast> {
        self.toasts.last()
    }
}
