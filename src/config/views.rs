//! `[[views]]` in the config file: the agent's own views, read with their
//! lines so a problem names where it is, and saved back with toml_edit so
//! the rest of the file (comments, order) stays as the agent wrote it.
//!
//! ```toml
//! [[views]]
//! name = "VIP waiting"
//! short = "VIP"            # the tab's name (at most 8 characters)
//! state = "open"           # open, closed, any
//! assignee = "me"          # me, nobody, or an email
//! waiting = "2h"           # the customer wrote last, more than 2h ago (true: at all)
//! source = "whatsapp"
//! tags_all = ["vip"]
//! tags_any = ["vip", "gold"]
//! team = "team-uuid"
//! fields = { plan = "gold" }
//! text = "refund"          # in the name, phone, tags or note
//! older_than = "7d"        # last activity more than 7 days ago
//! sort = "waiting"         # activity (newest first) or waiting (longest first)
//! notify = true            # a new customer message in it notifies
//! warn_after = "30m"       # the wait shows as a warning past this
//! breach_after = "4h"      # and as an error past this; its contacts waiting
//!                          # longer are in the Breaching view (and notify)
//! ```

use std::collections::HashSet;
use std::path::Path;

use toml::Spanned;
use toml::de::DeValue;

use super::error::ConfigError;
use crate::triage::{Assignee, Sort, State, View, ViewFilter, builtin_views, parse_duration};

/// The keys a view may have.
pub const VIEW_KEYS: &[&str] = &[
    "name",
    "short",
    "state",
    "assignee",
    "waiting",
    "source",
    "tags_all",
    "tags_any",
    "team",
    "fields",
    "text",
    "older_than",
    "sort",
    "notify",
    "warn_after",
    "breach_after",
];

fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// The `[[views]]` of a TOML text (a config file, or the part of one a
/// CLI sends a team hub to count): the views that read, and a line for
/// each that did not.
pub fn from_toml(text: &str) -> (Vec<View>, Vec<String>) {
    let mut warnings = Vec::new();
    let doc = match toml::de::DeTable::parse(text) {
        Ok(d) => d,
        Err(e) => return (Vec::new(), vec![format!("the views do not read as TOML: {e}")]),
    };
    let views = match doc.get_ref().get("views") {
        Some(v) => parse(Path::new("views"), text, v, &mut warnings),
        None => Vec::new(),
    };
    (views, warnings)
}

/// The `[[views]]` part of a config file's text, as TOML of its own
/// (`None`: the file has none, or does not read).
pub fn views_toml(config_text: &str) -> Option<String> {
    let mut table = config_text.parse::<toml::Table>().ok()?;
    let views = table.remove("views")?;
    let mut only = toml::Table::new();
    only.insert("views".into(), views);
    toml::to_string(&only).ok()
}

/// The views of `[[views]]`, in file order. A view with a problem is left
/// out and the problem (`FILE line N: view "X": problem`) goes to
/// `warnings`; the others load.
pub(super) fn parse(path: &Path, text: &str, value: &Spanned<DeValue<'_>>, warnings: &mut Vec<String>) -> Vec<View> {
    let at = |span: std::ops::Range<usize>| format!("{} line {}", super::error::shown(path), line_of(text, span.start));
    let DeValue::Array(items) = value.get_ref() else {
        warnings.push(format!(
            "{}: views must be written as [[views]] tables, one per view",
            at(value.span())
        ));
        return Vec::new();
    };
    let mut out: Vec<View> = Vec::new();
    // The names and short names taken so far, folded as `same` compares
    // them: one lookup a view, not a scan (5,000 views load at once).
    let mut taken: HashSet<String> = HashSet::new();
    fn take(v: &View, taken: &mut HashSet<String>) {
        taken.insert(folded(&v.name));
        taken.insert(folded(&v.short));
    }
    for v in &builtin_views() {
        take(v, &mut taken);
    }
    for item in items {
        match view_of(item) {
            Ok(view) => {
                if taken.contains(&folded(&view.name)) {
                    warnings.push(format!(
                        "{}: view \"{}\": another view already has this name; rename it",
                        at(item.span()),
                        crate::text::sanitize_line(&view.name)
                    ));
                } else {
                    take(&view, &mut taken);
                    out.push(view);
                }
            }
            Err((span, name, problem)) => {
                let who = match name {
                    Some(n) => format!("view \"{}\"", crate::text::sanitize_line(&n)),
                    None => "a view".to_string(),
                };
                warnings.push(format!("{}: {who}: {problem}", at(span)));
            }
        }
    }
    out
}

/// A name as `crate::triage::same` compares it: trimmed, any case.
fn folded(name: &str) -> String {
    name.trim().to_lowercase()
}

type Problem = (std::ops::Range<usize>, Option<String>, String);

fn string_of(v: &Spanned<DeValue<'_>>, key: &str) -> Result<String, String> {
    match v.get_ref() {
        DeValue::String(s) => Ok(s.to_string()),
        other => Err(format!("{key} must be a string, not {}", other.type_str())),
    }
}

fn strings_of(v: &Spanned<DeValue<'_>>, key: &str) -> Result<Vec<String>, String> {
    match v.get_ref() {
        DeValue::String(s) => Ok(crate::api::split_list(s)),
        DeValue::Array(items) => items
            .iter()
            .map(|i| match i.get_ref() {
                DeValue::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
                _ => Err(format!("{key} must be a list of tag names, like [\"vip\", \"gold\"]")),
            })
            .collect(),
        _ => Err(format!("{key} must be a list of tag names, like [\"vip\", \"gold\"]")),
    }
}

fn scalar_text(v: &DeValue<'_>) -> Option<String> {
    match v {
        DeValue::String(s) => Some(s.to_string()),
        DeValue::Integer(i) => Some(i.as_str().to_string()),
        DeValue::Float(f) => Some(f.as_str().to_string()),
        DeValue::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// One `[[views]]` table as a view, or where and what its first problem is.
fn view_of(item: &Spanned<DeValue<'_>>) -> Result<View, Problem> {
    let DeValue::Table(table) = item.get_ref() else {
        return Err((item.span(), None, "must be a table".into()));
    };
    let name = table.iter().find(|(k, _)| k.get_ref() == "name").map(|(_, v)| v);
    let name = match name.map(|v| (v, string_of(v, "name"))) {
        Some((_, Ok(n))) if !n.trim().is_empty() => n.trim().to_string(),
        Some((v, Ok(_))) => return Err((v.span(), None, "name must not be empty".into())),
        Some((v, Err(e))) => return Err((v.span(), None, e)),
        None => return Err((item.span(), None, "has no name: add name = \"...\"".into())),
    };
    let mut filter = ViewFilter::default();
    let mut short = None;
    let mut sort = None;
    let mut notify = false;
    let mut thresholds = crate::triage::Thresholds::default();
    for (k, v) in table {
        let key: &str = k.get_ref();
        let fail = |problem: String| (k.span(), Some(name.clone()), problem);
        let text = || string_of(v, key).map_err(fail);
        let duration = |s: String| parse_duration(&s).map_err(|e| fail(format!("{key}: {e}")));
        match key {
            "name" => {}
            "notify" => match v.get_ref() {
                DeValue::Boolean(b) => notify = *b,
                _ => return Err(fail("notify must be true or false".into())),
            },
            "warn_after" => thresholds.warn = Some(duration(text()?)?),
            "breach_after" => thresholds.breach = Some(duration(text()?)?),
            "short" => {
                let s = text()?;
                let n = s.trim().chars().count();
                if n == 0 || n > crate::triage::SHORT_MAX {
                    return Err(fail(format!(
                        "short must be 1 to {} characters (it names the tab)",
                        crate::triage::SHORT_MAX
                    )));
                }
                short = Some(s.trim().to_string());
            }
            "state" => {
                let s = text()?;
                filter.state = State::parse(&s)
                    .ok_or_else(|| fail(format!("state must be open, closed or any, not \"{}\"", clean(&s))))?;
            }
            "assignee" => {
                let a = Assignee::parse(&text()?);
                if let Assignee::Email(e) = &a {
                    crate::api::model::checked_email(e)
                        .map_err(|p| fail(format!("assignee must be me, nobody or an email: {p}")))?;
                }
                filter.assignee = Some(a);
            }
            "waiting" => {
                filter.waiting = match v.get_ref() {
                    DeValue::Boolean(true) => Some(std::time::Duration::ZERO),
                    DeValue::Boolean(false) => None,
                    DeValue::String(s) => Some(duration(s.to_string())?),
                    _ => return Err(fail("waiting must be true or a duration like \"2h\"".into())),
                };
            }
            "source" => filter.source = Some(text()?.trim().to_string()),
            "team" => filter.team = Some(text()?.trim().to_string()),
            "text" => filter.text = Some(text()?),
            "tags_all" => filter.tags_all = strings_of(v, key).map_err(fail)?,
            "tags_any" => filter.tags_any = strings_of(v, key).map_err(fail)?,
            "older_than" => filter.older_than = Some(duration(text()?)?),
            "sort" => {
                let s = text()?;
                sort = Some(
                    Sort::parse(&s)
                        .ok_or_else(|| fail(format!("sort must be activity or waiting, not \"{}\"", clean(&s))))?,
                );
            }
            "fields" => {
                let DeValue::Table(fields) = v.get_ref() else {
                    return Err(fail(
                        "fields must be a table of name = value, like { plan = \"gold\" }".into(),
                    ));
                };
                for (fk, fv) in fields {
                    let value = scalar_text(fv.get_ref())
                        .ok_or_else(|| fail(format!("fields.{}: the value must be a string", clean(fk.get_ref()))))?;
                    filter.fields.push((fk.get_ref().to_string(), value));
                }
            }
            other => {
                return Err(fail(format!(
                    "unknown key \"{}\" (a view takes {})",
                    clean(other),
                    VIEW_KEYS.join(", ")
                )));
            }
        }
    }
    let mut view = View::new(&name, filter);
    if let Some(s) = short {
        view.short = s;
    }
    if let Some(s) = sort {
        view.sort = s;
    }
    view.notify = notify;
    view.thresholds = thresholds;
    Ok(view)
}

fn clean(s: &str) -> String {
    crate::text::sanitize_line(s)
}

/// The `[[views]]` table of `view`, as the config file writes it.
fn table_of(view: &View) -> toml_edit::Table {
    use toml_edit::{Array, InlineTable, value};
    let mut t = toml_edit::Table::new();
    let f = &view.filter;
    t["name"] = value(view.name.as_str());
    if view.short != crate::triage::short_name(&view.name) {
        t["short"] = value(view.short.as_str());
    }
    if f.state != State::Any {
        t["state"] = value(f.state.as_str());
    }
    if let Some(a) = &f.assignee {
        t["assignee"] = value(a.as_text());
    }
    match f.waiting {
        Some(d) if d.is_zero() => t["waiting"] = value(true),
        Some(d) => t["waiting"] = value(humantime::format_duration(d).to_string()),
        None => {}
    }
    if let Some(s) = &f.source {
        t["source"] = value(s.as_str());
    }
    let list = |tags: &[String]| tags.iter().map(String::as_str).collect::<Array>();
    if !f.tags_all.is_empty() {
        t["tags_all"] = value(list(&f.tags_all));
    }
    if !f.tags_any.is_empty() {
        t["tags_any"] = value(list(&f.tags_any));
    }
    if let Some(s) = &f.team {
        t["team"] = value(s.as_str());
    }
    if !f.fields.is_empty() {
        let mut inline = InlineTable::new();
        for (k, v) in &f.fields {
            inline.insert(k, v.as_str().into());
        }
        t["fields"] = value(inline);
    }
    if let Some(s) = &f.text {
        t["text"] = value(s.as_str());
    }
    if let Some(d) = f.older_than {
        t["older_than"] = value(humantime::format_duration(d).to_string());
    }
    if view.notify {
        t["notify"] = value(true);
    }
    for (key, d) in [
        ("warn_after", view.thresholds.warn),
        ("breach_after", view.thresholds.breach),
    ] {
        if let Some(d) = d {
            t[key] = value(humantime::format_duration(d).to_string());
        }
    }
    let default_sort = View::new(&view.name, f.clone()).sort;
    if view.sort != default_sort {
        t["sort"] = value(view.sort.as_str());
    }
    t
}

/// Writes `view` into the config file at `path` as a `[[views]]` table:
/// it replaces the view of the same name (any case) where it stands, or is
/// added after the others. Everything else in the file (comments, order,
/// spacing) stays. A file that does not exist is created (mode 0600); one
/// that does keeps its mode; a symlink is written through, a read-only
/// file refused, and saves at once wait for each other (`save::rewrite`).
pub fn save_view(path: &Path, view: &View) -> Result<(), ConfigError> {
    super::save::rewrite(path, false, |text| with_view(path, text.unwrap_or_default(), view))
}

/// The file's text with `view` saved into it (see `save_view`).
fn with_view(path: &Path, text: &str, view: &View) -> Result<String, ConfigError> {
    let shown = super::error::shown(path);
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| ConfigError::new(format!("{shown}: {}", e.message())))?;
    let new = table_of(view);
    let item = doc
        .entry("views")
        .or_insert_with(|| toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
    let Some(views) = item.as_array_of_tables_mut() else {
        return Err(ConfigError::new(format!(
            "{shown}: views is not written as [[views]] tables, so a view cannot be added to it"
        )));
    };
    let same = views.iter_mut().find(|t| {
        t.get("name")
            .and_then(|n| n.as_str())
            .is_some_and(|n| n.trim().eq_ignore_ascii_case(view.name.trim()))
    });
    match same {
        Some(old) => {
            // Keep the comments above its header; replace its keys.
            let decor = old.decor().clone();
            *old = new;
            *old.decor_mut() = decor;
        }
        None => views.push(new),
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests;
