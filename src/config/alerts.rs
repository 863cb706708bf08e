//! Waits, notifications and replies to closed conversations, from the
//! file's top level:
//!
//! ```toml
//! warn_after = "30m"        # defaults for every view that sets none
//! breach_after = "4h"       # also makes the Breaching view (a view's own adds to it)
//! notify_command = ["notify-send", "frontdesk"]   # or a string, split without a shell
//! reopen_on_reply = true    # a customer writing in a closed conversation reopens it
//! assign_on_reply = true    # (the default) your reply to an Unassigned conversation takes it
//! ```
//!
//! Read by hand, like `[[views]]`: a bad value is a warning naming the
//! file, line, key and value, and the setting is left unset; the inbox
//! starts anyway.

use std::path::Path;
use std::time::Duration;

use toml::Spanned;
use toml::de::DeValue;

use crate::text::sanitize_line;
use crate::triage::{Thresholds, parse_duration};

/// The keys this file reads at the top level.
pub const KEYS: &[&str] = &[
    "warn_after",
    "breach_after",
    "notify_command",
    "reopen_on_reply",
    "assign_on_reply",
];

/// What the top level says about waits and notifications.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alerts {
    /// Defaults for views without their own.
    pub thresholds: Thresholds,
    /// Program and arguments run on a notification; empty: none.
    pub notify_command: Vec<String>,
    /// Reopen on the service a closed conversation the customer writes in.
    pub reopen_on_reply: bool,
    /// `assign_on_reply` as the file sets it; see [`Alerts::assign_on_reply`].
    pub assign_on_reply_set: Option<bool>,
}

impl Alerts {
    /// Whether this agent's reply to an Unassigned conversation assigns it
    /// to them (default on): after the send, through the checked owner
    /// write, never taking one a colleague holds.
    pub fn assign_on_reply(&self) -> bool {
        self.assign_on_reply_set.unwrap_or(true)
    }
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The value as the file wrote it, inert and short, for a warning.
fn shown_value(text: &str, span: std::ops::Range<usize>) -> String {
    let raw = text.get(span).unwrap_or("");
    let v = sanitize_line(raw.trim());
    if v.chars().count() > 40 {
        format!("{}…", v.chars().take(40).collect::<String>())
    } else {
        v
    }
}

/// Reads the keys of [`KEYS`] from the file's top-level table; problems go
/// to `warnings`.
pub(super) fn parse(path: &Path, text: &str, top: &toml::de::DeTable<'_>, warnings: &mut Vec<String>) -> Alerts {
    let mut out = Alerts::default();
    for (k, v) in top {
        let key: &str = k.get_ref();
        if !KEYS.contains(&key) {
            continue;
        }
        let mut warn = |problem: &str| {
            warnings.push(format!(
                "{} line {}: {key} = {}: {problem} (ignored)",
                super::error::shown(path),
                line_of(text, k.span().start),
                shown_value(text, v.span())
            ))
        };
        match key {
            "warn_after" | "breach_after" => match duration(v) {
                Ok(d) if key == "warn_after" => out.thresholds.warn = Some(d),
                Ok(d) => out.thresholds.breach = Some(d),
                Err(e) => warn(&e),
            },
            "notify_command" => match command(v) {
                Ok(argv) => out.notify_command = argv,
                Err(e) => warn(&e),
            },
            "assign_on_reply" => match v.get_ref() {
                DeValue::Boolean(b) => out.assign_on_reply_set = Some(*b),
                _ => warn("must be true or false"),
            },
            _ => match v.get_ref() {
                DeValue::Boolean(b) => out.reopen_on_reply = *b,
                _ => warn("must be true or false"),
            },
        }
    }
    if let Thresholds {
        warn: Some(w),
        breach: Some(b),
    } = out.thresholds
        && w > b
    {
        warnings.push(format!(
            "{}: warn_after is longer than breach_after, so a wait is never only a warning",
            super::error::shown(path)
        ));
    }
    out
}

fn duration(v: &Spanned<DeValue<'_>>) -> Result<Duration, String> {
    match v.get_ref() {
        DeValue::String(s) => match parse_duration(s) {
            Ok(d) if d.is_zero() => Err("must be longer than 0".into()),
            Ok(d) => Ok(d),
            Err(e) => Err(e),
        },
        _ => Err("must be a duration in quotes, like \"30m\" or \"4h\"".into()),
    }
}

/// A list of program and arguments, or one string split on whitespace
/// (quotes are not interpreted: no shell ever reads it).
fn command(v: &Spanned<DeValue<'_>>) -> Result<Vec<String>, String> {
    const SHAPE: &str = "must be a list like [\"notify-send\", \"frontdesk\"] or a string";
    let argv: Vec<String> = match v.get_ref() {
        DeValue::String(s) => s.split_whitespace().map(str::to_string).collect(),
        DeValue::Array(items) => items
            .iter()
            .map(|i| match i.get_ref() {
                DeValue::String(s) => Ok(s.to_string()),
                _ => Err(SHAPE.to_string()),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(SHAPE.into()),
    };
    match argv.first() {
        None => Err("is empty: name a program to run".into()),
        Some(p) if p.trim().is_empty() => Err("the program's name is empty".into()),
        Some(_) => Ok(argv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Alerts, Vec<String>) {
        let doc = toml::de::DeTable::parse(text).unwrap();
        let mut w = Vec::new();
        let a = parse(Path::new("/cfg.toml"), text, doc.get_ref(), &mut w);
        (a, w)
    }

    #[test]
    fn good_values_are_read() {
        let (a, w) = read(
            "warn_after = \"30m\"\nbreach_after = \"4h\"\nnotify_command = [\"notify-send\", \"fd\"]\nreopen_on_reply = true\n",
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(a.thresholds.warn, Some(Duration::from_secs(1800)));
        assert_eq!(a.thresholds.breach, Some(Duration::from_secs(4 * 3600)));
        assert_eq!(a.notify_command, ["notify-send", "fd"]);
        assert!(a.reopen_on_reply);
        let (a, _) = read("notify_command = \"notify-send  -u low\"\n");
        assert_eq!(a.notify_command, ["notify-send", "-u", "low"]);
    }

    #[test]
    fn bad_values_are_warnings_naming_file_line_key_and_value() {
        let (a, w) = read(
            "title = true\nwarn_after = \"soon\"\nbreach_after = 4\nnotify_command = []\nreopen_on_reply = \"yes\"\n",
        );
        assert_eq!(a, Alerts::default());
        assert_eq!(w.len(), 4, "{w:?}");
        let has = |s: &str| assert!(w.iter().any(|l| l.contains(s)), "{s:?} in {w:?}");
        has("/cfg.toml line 2: warn_after = \"soon\": \"soon\" is not a duration");
        has("/cfg.toml line 3: breach_after = 4: must be a duration");
        has("/cfg.toml line 4: notify_command = []: is empty");
        has("/cfg.toml line 5: reopen_on_reply = \"yes\": must be true or false");
    }
}
