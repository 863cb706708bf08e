//! Canned replies: `snippets.toml` beside the config file, one
//! `shortcode = "text"` each (or a table with `text` and an optional
//! `label`), and the variables they are filled with.
//!
//! ```toml
//! thanks = "Thanks {{contact.first_name}}, glad it works!"
//! [refund]
//! label = "Refund policy"
//! text = """
//! Hi {{contact.name}}, {{cursor}}
//! -- {{agent.name}}"""
//! ```
//!
//! A variable that has no value is left in the text as typed, and named,
//! so the agent sees it before sending instead of a silent blank.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::api::{Contact, FieldValue};

/// The longest snippet: the service's limit on a message's text.
pub const MAX_TEXT: usize = 4096;

/// The file's name, beside the config file.
pub const FILE_NAME: &str = "snippets.toml";

/// One canned reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// What is typed after `/` to pick it.
    pub name: String,
    /// Shown in the picker and in `snippets list` (the text's first line when not set).
    pub label: String,
    /// The text, with its `{{variables}}` as written.
    pub text: String,
}

/// The snippets of a file, and what was wrong with the entries left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snippets {
    /// Sorted by name.
    pub items: Vec<Snippet>,
    /// One sentence each, inert.
    pub warnings: Vec<String>,
    /// The file they came from (none read when it does not exist).
    pub path: Option<PathBuf>,
    /// The names of those that came from the team's hub (`merge_team`).
    pub team: BTreeSet<String>,
}

impl Snippets {
    pub fn get(&self, name: &str) -> Option<&Snippet> {
        self.items.iter().find(|s| s.name == name)
    }
}

/// Where the snippets file is for a config file at `config`.
pub fn path_beside(config: &Path) -> Option<PathBuf> {
    config.parent().map(|dir| dir.join(FILE_NAME))
}

/// Reads the snippets file at `path`. A missing file is no snippets; a file
/// that cannot be read or is not TOML is an error (a sentence naming it).
pub fn load(path: &Path) -> Result<Snippets, String> {
    let shown = || crate::text::sanitize_line(&path.display().to_string());
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Snippets::default()),
        Err(e) => return Err(format!("cannot read {}: {e}", shown())),
    };
    let mut snippets = parse(&text).map_err(|e| format!("{}: {e}", shown()))?;
    snippets.path = Some(path.to_path_buf());
    Ok(snippets)
}

/// The snippets of `snippets.toml` beside the config file at `config`
/// and of the config's own `[snippets]` table (`table`); a shortcode in
/// both is the file's, and a warning says so.
pub fn load_all(config: Option<&Path>, table: &toml::Table) -> Result<Snippets, String> {
    let mut out = match config.and_then(path_beside) {
        Some(path) => load(&path)?,
        None => Snippets::default(),
    };
    let inline = from_table(table.clone());
    out.warnings
        .extend(inline.warnings.into_iter().map(|w| format!("[snippets]: {w}")));
    for s in inline.items {
        if out.get(&s.name).is_some() {
            out.warnings.push(format!(
                "snippet \"{}\" is in [snippets] and in {FILE_NAME}: the file's is used",
                s.name
            ));
        } else {
            out.items.push(s);
        }
    }
    out.items.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Snippets that came from elsewhere (a team hub) as `(name, label,
/// text)`: checked as a file's entries are (names, length, control
/// characters), the rest left out with a warning.
pub fn from_pairs(pairs: impl IntoIterator<Item = (String, Option<String>, String)>) -> Snippets {
    let mut table = toml::Table::new();
    for (name, label, text) in pairs {
        let mut entry = toml::Table::new();
        entry.insert("text".into(), toml::Value::String(text));
        if let Some(l) = label {
            entry.insert("label".into(), toml::Value::String(l));
        }
        table.insert(name, toml::Value::Table(entry));
    }
    from_table(table)
}

/// Adds the team's snippets (from the hub) to `local`: on the same
/// shortcode the local one wins. The team's names are kept in `team`.
pub fn merge_team(local: &mut Snippets, team: Snippets) {
    local
        .warnings
        .extend(team.warnings.into_iter().map(|w| format!("team snippets: {w}")));
    for s in team.items {
        if local.get(&s.name).is_none() {
            local.team.insert(s.name.clone());
            local.items.push(s);
        }
    }
    local.items.sort_by(|a, b| a.name.cmp(&b.name));
}

/// Parses a snippets file's text.
pub fn parse(text: &str) -> Result<Snippets, String> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| crate::text::sanitize_line(e.message()))?;
    Ok(from_table(table))
}

/// The snippets of a table of `shortcode = text` (or `{ text, label }`).
fn from_table(table: toml::Table) -> Snippets {
    let mut out = Snippets::default();
    for (name, value) in table {
        let shown = crate::text::sanitize_line(&name);
        if !valid_name(&name) {
            out.warnings.push(format!(
                "snippet \"{shown}\" left out: a shortcode is 1 to 40 letters, digits, - or _"
            ));
            continue;
        }
        let (text, label) = match value {
            toml::Value::String(s) => (s, None),
            toml::Value::Table(mut t) => match t.remove("text") {
                Some(toml::Value::String(s)) => (s, t.remove("label").and_then(|l| l.as_str().map(str::to_string))),
                _ => {
                    out.warnings
                        .push(format!("snippet \"{shown}\" left out: its table has no text = \"...\""));
                    continue;
                }
            },
            _ => {
                out.warnings
                    .push(format!("snippet \"{shown}\" left out: write it as {shown} = \"text\""));
                continue;
            }
        };
        if text.trim().is_empty() {
            out.warnings
                .push(format!("snippet \"{shown}\" left out: its text is empty"));
            continue;
        }
        if text.chars().count() > MAX_TEXT {
            out.warnings.push(format!(
                "snippet \"{shown}\" left out: longer than a message can be ({MAX_TEXT} characters)"
            ));
            continue;
        }
        // A file is outside text: only its line breaks and tabs stay.
        let text: String = text
            .chars()
            .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
            .collect();
        let label = label
            .map(|l| crate::text::sanitize_line(&l))
            .unwrap_or_else(|| crate::text::sanitize_line(text.lines().next().unwrap_or_default()));
        out.items.push(Snippet { name, label, text });
    }
    out.items.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn valid_name(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What variables are filled with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vars {
    pub contact_name: Option<String>,
    /// Custom fields by name; a checkbox's values joined with ", ".
    pub custom: BTreeMap<String, String>,
    pub agent_name: Option<String>,
}

impl Vars {
    /// The variables of `contact`, for an agent called `agent_name`.
    pub fn of(contact: &Contact, agent_name: Option<&str>) -> Vars {
        Vars {
            contact_name: Some(contact.name.clone()).filter(|n| !n.trim().is_empty()),
            custom: contact
                .custom_fields
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        FieldValue::Text(s) => s.clone(),
                        FieldValue::List(items) => items.join(", "),
                    };
                    (k.clone(), v)
                })
                .filter(|(_, v)| !v.trim().is_empty())
                .collect(),
            agent_name: agent_name.map(str::to_string).filter(|n| !n.trim().is_empty()),
        }
    }

    fn value(&self, var: &str) -> Option<String> {
        match var {
            "contact.name" => self.contact_name.clone(),
            "contact.first_name" => self
                .contact_name
                .as_deref()
                .and_then(|n| n.split_whitespace().next())
                .map(str::to_string),
            "agent.name" => self.agent_name.clone(),
            _ => self.custom.get(var.strip_prefix("contact.custom.")?).cloned(),
        }
    }
}

/// A snippet's text with its variables filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filled {
    pub text: String,
    /// Where `{{cursor}}` was, as a char offset into `text` (the end when absent).
    pub cursor: usize,
    /// The variables that had no value, as written; left in `text` as typed.
    pub missing: Vec<String>,
}

/// Fills `text`'s `{{variables}}` from `vars`. Spaces inside the braces are
/// allowed (`{{ contact.name }}`); an unknown or empty variable stays as
/// written and is named in `missing`.
pub fn fill(text: &str, vars: &Vars) -> Filled {
    let mut out = String::with_capacity(text.len());
    let mut cursor = None;
    let mut missing: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let var = after[..close].trim();
        if var == "cursor" {
            cursor.get_or_insert(out.chars().count());
        } else if let Some(v) = vars.value(var) {
            out.push_str(&v);
        } else {
            out.push_str(&rest[open..open + 2 + close + 2]);
            if !missing.iter().any(|m| m == var) {
                missing.push(var.to_string());
            }
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    let cursor = cursor.unwrap_or_else(|| out.chars().count());
    Filled {
        text: out,
        cursor,
        missing,
    }
}

#[cfg(test)]
mod tests;
