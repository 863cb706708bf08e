//! The config file: parsing, problems named by file and line, and the
//! `[keys]` table read with its lines so key problems can point at them.
//!
//! A value is never echoed in an error: a mistyped `api_key = 98765…` must
//! not print the key, so type errors name the setting and the kind of value.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::error::{ConfigError, shown};
use crate::text::sanitize_line;

/// One account's keys, in a profile or at the top level.
#[derive(Debug, Default, Deserialize)]
pub(super) struct Profile {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub hub_url: Option<String>,
    pub hub_token: Option<String>,
    pub user_uuid: Option<String>,
    pub user_email: Option<String>,
    pub timeout_secs: Option<u64>,
    pub refresh_secs: Option<u64>,
    pub bell: Option<bool>,
}

/// The file as serde reads it. No `flatten`: it would lose the spans that
/// give type errors their real line.
#[derive(Debug, Default, Deserialize)]
pub(super) struct FileConfig {
    pub default_profile: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub hub_url: Option<String>,
    pub hub_token: Option<String>,
    pub user_uuid: Option<String>,
    pub user_email: Option<String>,
    pub timeout_secs: Option<u64>,
    pub refresh_secs: Option<u64>,
    pub bell: Option<bool>,
    pub theme: Option<String>,
    pub mouse: Option<bool>,
    pub title: Option<bool>,
    /// Inline image previews in the thread (default true).
    pub image_previews: Option<bool>,
    /// Links in the thread as OSC 8 hyperlinks (default true).
    pub hyperlinks: Option<bool>,
    /// Keep the local index on disk (default true).
    pub cache: Option<bool>,
    pub sync_rate: Option<f64>,
    pub full_sync_minutes: Option<u64>,
    /// Read by hand (`key_entries`), with lines.
    #[serde(skip)]
    pub keys: Vec<KeyEntry>,
    /// `[[views]]`, read by hand (`views::parse`), with lines.
    #[serde(skip)]
    pub views: Vec<crate::triage::View>,
    /// Waits, notifications, reopening: read by hand (`alerts::parse`).
    #[serde(skip)]
    pub alerts: super::alerts::Alerts,
    /// `[macros.NAME]`, read by `crate::macros::parse` (a broken one is
    /// left out whole and named in the warnings).
    #[serde(skip)]
    pub macros: Vec<crate::macros::Macro>,
    /// `[snippets]`: `shortcode = "text"`, as in `snippets.toml`.
    #[serde(skip)]
    pub snippets: toml::Table,
}

impl FileConfig {
    /// The top-level account keys as the `default` profile.
    pub fn take_top(&mut self) -> Profile {
        Profile {
            base_url: self.base_url.take(),
            api_key: self.api_key.take(),
            hub_url: self.hub_url.take(),
            hub_token: self.hub_token.take(),
            user_uuid: self.user_uuid.take(),
            user_email: self.user_email.take(),
            timeout_secs: self.timeout_secs,
            refresh_secs: self.refresh_secs,
            bell: self.bell,
        }
    }
}

/// One line of `[keys]`: an action name and the keys bound to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEntry {
    pub action: String,
    pub keys: Vec<String>,
    /// "FILE line N", for messages.
    pub at: String,
}

const TOP_KEYS: &[&str] = &[
    "default_profile",
    "profiles",
    "base_url",
    "api_key",
    "hub_url",
    "hub_token",
    "user_uuid",
    "user_email",
    "timeout_secs",
    "refresh_secs",
    "bell",
    "theme",
    "mouse",
    "title",
    "image_previews",
    "hyperlinks",
    "cache",
    "sync_rate",
    "full_sync_minutes",
    "keys",
    "views",
    "warn_after",
    "breach_after",
    "notify_command",
    "reopen_on_reply",
    "assign_on_reply",
    "macros",
    "snippets",
];
const PROFILE_KEYS: &[&str] = &[
    "base_url",
    "api_key",
    "hub_url",
    "hub_token",
    "user_uuid",
    "user_email",
    "timeout_secs",
    "refresh_secs",
    "bell",
];

/// The 1-based line of a byte offset.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// A serde/toml message with any quoted value taken out: "invalid type:
/// integer `98765432109876`, expected a string" becomes "invalid type:
/// integer, expected a string".
pub(super) fn without_values(message: &str) -> String {
    if !(message.contains("invalid type") || message.contains("invalid value")) {
        return message.to_string();
    }
    // The expectation after ", expected" names types, never the value.
    let (found, expected) = match message.find(", expected") {
        Some(at) => message.split_at(at),
        None => (message, ""),
    };
    let mut out = unquoted(found);
    out.push_str(expected);
    out
}

fn unquoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' => {
                // Skip to the matching quote, and the space before it.
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                }
                if out.ends_with(' ') {
                    out.pop();
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The setting named on a line (`api_key = …` → `api_key`), never its value.
fn setting_on(text: &str, line: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let (key, _) = l.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))).then(|| key.to_string())
}

fn error_at(path: &Path, text: &str, e: &toml::de::Error) -> ConfigError {
    let problem = without_values(e.message().trim());
    match e.span() {
        Some(span) => {
            let line = line_of(text, span.start);
            let setting = setting_on(text, line).map(|s| format!(" ({s})")).unwrap_or_default();
            ConfigError::new(format!("{} line {line}{setting}: {problem}", shown(path)))
        }
        None => ConfigError::new(format!("{}: {problem}", shown(path))),
    }
}

/// Parses the file's text: syntax and type errors name the file and line.
/// Unknown settings and `[keys]` problems of shape become warnings.
pub(super) fn parse(path: &Path, text: &str, warnings: &mut Vec<String>) -> Result<FileConfig, ConfigError> {
    let doc = toml::de::DeTable::parse(text).map_err(|e| error_at(path, text, &e))?;
    let mut parsed: FileConfig = toml::from_str(text).map_err(|e| error_at(path, text, &e))?;

    parsed.alerts = super::alerts::parse(path, text, doc.get_ref(), warnings);
    let mut unknown = Vec::new();
    for (k, v) in doc.get_ref() {
        let name: &str = k.get_ref();
        if !TOP_KEYS.contains(&name) {
            unknown.push(sanitize_line(name));
        }
        if name == "profiles"
            && let toml::de::DeValue::Table(profiles) = v.get_ref()
        {
            for (p, body) in profiles {
                if let toml::de::DeValue::Table(body) = body.get_ref() {
                    for k in body.keys() {
                        if !PROFILE_KEYS.contains(&k.get_ref().as_ref()) {
                            unknown.push(sanitize_line(&format!("profiles.{}.{}", p.get_ref(), k.get_ref())));
                        }
                    }
                }
            }
        }
        if name == "keys" {
            parsed.keys = key_entries(path, text, v, warnings);
        }
        if name == "views" {
            parsed.views = super::views::parse(path, text, v, warnings);
        }
        if name == "macros" {
            parsed.macros = macros(path, text, warnings);
        }
        if name == "snippets" {
            parsed.snippets = match text.parse::<toml::Table>().ok().and_then(|mut t| t.remove("snippets")) {
                Some(toml::Value::Table(t)) => t,
                _ => {
                    warnings.push(format!("{}: snippets must be a [snippets] table", shown(path)));
                    toml::Table::new()
                }
            };
        }
    }
    if !unknown.is_empty() {
        warnings.push(format!(
            "{} has settings frontdesk does not know (ignored): {}",
            shown(path),
            unknown.join(", ")
        ));
    }
    Ok(parsed)
}

/// `[macros.NAME]`: the macros that read whole, in name order; each one
/// left out is a warning naming the file.
fn macros(path: &Path, text: &str, warnings: &mut Vec<String>) -> Vec<crate::macros::Macro> {
    let table = text
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("macros"))
        .and_then(|m| m.as_table().cloned());
    let Some(table) = table else {
        warnings.push(format!("{}: macros must be [macros.NAME] tables", shown(path)));
        return Vec::new();
    };
    let (macros, problems) = crate::macros::parse(&table, &chrono::Local::now());
    warnings.extend(problems.into_iter().map(|w| format!("{}: {w}", shown(path))));
    macros
}

/// `[keys]`: `action = "key"` or `action = ["key", …]`. A value of another
/// shape is a warning with its line; the action keeps its default keys.
fn key_entries(
    path: &Path,
    text: &str,
    keys: &toml::Spanned<toml::de::DeValue<'_>>,
    warnings: &mut Vec<String>,
) -> Vec<KeyEntry> {
    use toml::de::DeValue;
    let at = |span: std::ops::Range<usize>| format!("{} line {}", shown(path), line_of(text, span.start));
    let DeValue::Table(table) = keys.get_ref() else {
        warnings.push(format!(
            "{}: keys must be a table of action = [\"key\", …]",
            at(keys.span())
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    // `[keys.account]` holds the account overlay's `account.*` names.
    let mut flat = Vec::new();
    for (action, value) in table {
        match value.get_ref() {
            DeValue::Table(inner) => {
                for (a, v) in inner {
                    flat.push((format!("{}.{}", action.get_ref(), a.get_ref()), a.span(), v));
                }
            }
            _ => flat.push((action.get_ref().to_string(), action.span(), value)),
        }
    }
    for (action, span, value) in flat {
        let strings: Option<Vec<String>> = match value.get_ref() {
            DeValue::String(s) => Some(vec![s.to_string()]),
            DeValue::Array(items) => items
                .iter()
                .map(|i| match i.get_ref() {
                    DeValue::String(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect(),
            _ => None,
        };
        match strings {
            Some(keys) => out.push(KeyEntry {
                action,
                keys,
                at: at(span),
            }),
            None => warnings.push(format!(
                "{}: keys.{} must be a key name or a list of key names, like [\"j\", \"down\"]",
                at(span),
                sanitize_line(&action)
            )),
        }
    }
    // The order of the file, so the first of two conflicting lines wins.
    out.sort_by_key(|e| e.at.rsplit(' ').next().and_then(|n| n.parse::<usize>().ok()));
    out
}

/// Reads and parses the file; `None` when it does not exist.
pub(super) fn read_file(path: &Path, warnings: &mut Vec<String>) -> Result<Option<FileConfig>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ConfigError::new(format!(
                "the config file {} cannot be read: {e}",
                shown(path)
            )));
        }
    };
    let parsed = parse(path, &text, warnings)?;
    let holds_key = parsed.api_key.is_some()
        || parsed.hub_token.is_some()
        || parsed
            .profiles
            .values()
            .any(|p| p.api_key.is_some() || p.hub_token.is_some());
    if holds_key && let Some(w) = permission_warning(path) {
        warnings.push(w);
    }
    Ok(Some(parsed))
}

/// A warning when a file holding a key can be read by group or others.
#[cfg(unix)]
fn permission_warning(path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    (mode & 0o077 != 0).then(|| {
        format!(
            "{p} holds an API key or hub token and other users can read it (mode {:o}); run: chmod 600 {p}",
            mode & 0o777,
            p = shown(path)
        )
    })
}

#[cfg(not(unix))]
fn permission_warning(_path: &Path) -> Option<String> {
    None
}
