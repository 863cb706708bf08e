//! The resolved key map: the defaults with the config file's `[keys]`
//! applied. Problems (an unknown action or key name, a key claimed twice)
//! are reported with the file and line; everything else still loads.

use crossterm::event::{KeyCode, KeyEvent};

use super::account::{ACCOUNT_KEYMAP, AccountAction};
use super::editing::EDIT_KEYMAP;
use super::modes::{MODE_KEYMAP, Mode, ModeAction};
use super::table::{Action, KEYMAP, Key, normalise};
use crate::config::KeyEntry;

/// One row of the resolved map (of the inbox, or of a context such as the
/// account overlay).
#[derive(Debug, Clone, PartialEq)]
pub struct Row<A = Action> {
    pub action: A,
    pub keys: Vec<Key>,
    /// How help, the palette and the README show the keys.
    pub label: String,
    /// The short name the palette and the `[keys]` table use.
    pub name: String,
    pub help: String,
}

/// Every action with its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    rows: Vec<Row>,
    /// The account overlay's keys (`account.*` names).
    account: Vec<Row<AccountAction>>,
    /// Each mode's keys (`MODE.*` names), in `Mode::ALL`'s order.
    modes: Vec<(Mode, Vec<Row<ModeAction>>)>,
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap::defaults()
    }
}

impl Keymap {
    /// The first key of `action`, for footers and toasts ("" when it has
    /// none).
    /// The first key of `action` in `mode` as help shows it ("" unbound).
    pub fn mode_key(&self, mode: Mode, action: ModeAction) -> String {
        self.mode_rows(mode)
            .iter()
            .find(|r| r.action == action)
            .and_then(|r| r.label.split(' ').next())
            .unwrap_or("")
            .to_string()
    }

    pub fn first_key(&self, action: Action) -> String {
        self.label(action).split(' ').next().unwrap_or("").to_string()
    }

    /// The built-in keys.
    pub fn defaults() -> Keymap {
        Keymap {
            rows: KEYMAP
                .iter()
                .map(|b| Row {
                    action: b.action,
                    keys: b.keys.to_vec(),
                    label: b.label.to_string(),
                    name: b.name.to_string(),
                    help: b.help.to_string(),
                })
                .collect(),
            account: ACCOUNT_KEYMAP
                .iter()
                .map(|b| Row {
                    action: b.action,
                    keys: b.keys.to_vec(),
                    label: b.label.to_string(),
                    name: b.name.to_string(),
                    help: b.help.to_string(),
                })
                .collect(),
            modes: Mode::ALL
                .iter()
                .map(|&mode| {
                    // The modes' rows, then the widgets'.
                    let rows = MODE_KEYMAP
                        .iter()
                        .chain(EDIT_KEYMAP)
                        .filter(|b| b.mode == mode)
                        .map(|b| Row {
                            action: b.action,
                            keys: b.keys.to_vec(),
                            label: b.label.to_string(),
                            name: b.name.to_string(),
                            help: b.help.to_string(),
                        })
                        .collect();
                    (mode, rows)
                })
                .collect(),
        }
    }

    /// The defaults with `entries` applied, and the problems found (each
    /// naming its file and line). An entry replaces its action's keys; a key
    /// it takes from another action's defaults moves to it.
    pub fn resolve(entries: &[KeyEntry]) -> (Keymap, Vec<String>) {
        Keymap::resolve_with(entries, &[])
    }

    /// [`Keymap::resolve`] with the config file's macros: each is a row of
    /// the inbox's (`macro.NAME`, its label as help) that `[keys]` can
    /// rebind; a macro's own key that another row holds once `[keys]` is
    /// applied is refused, naming both (the macro stays in the palette).
    pub fn resolve_with(entries: &[KeyEntry], macros: &[crate::macros::Macro]) -> (Keymap, Vec<String>) {
        let mut map = Keymap::defaults();
        let mut problems = Vec::new();
        let first = map.rows.len();
        map.rows.extend(macros.iter().enumerate().map(|(i, m)| Row {
            action: Action::Macro(u16::try_from(i).unwrap_or(u16::MAX)),
            keys: Vec::new(),
            label: String::new(),
            name: macro_name(&m.name),
            // A macro that sends says so before its key is pressed.
            help: if m.sends() {
                format!("{} (sends)", m.label)
            } else {
                m.label.clone()
            },
        }));
        let prefix = |e: &KeyEntry| e.action.split_once('.').map(|(p, _)| p.to_string());
        let in_context = |e: &&KeyEntry, name: &str| prefix(e).as_deref() == Some(name);
        let known = |e: &&KeyEntry| in_context(e, "account") || Mode::ALL.iter().any(|m| in_context(e, m.prefix()));
        let inbox: Vec<&KeyEntry> = entries.iter().filter(|e| !known(e)).collect();
        let account: Vec<&KeyEntry> = entries.iter().filter(|e| in_context(e, "account")).collect();
        apply(&mut map.rows, &inbox, &mut problems);
        for (i, m) in macros.iter().enumerate() {
            let row = first + i;
            let named = inbox.iter().any(|e| e.action == map.rows[row].name);
            let Some(wanted) = m.key.as_deref().filter(|_| !named) else {
                continue;
            };
            let name = &map.rows[row].name;
            let Some(k) = parse_key(wanted) else {
                problems.push(format!(
                    "{name}: unknown key {wanted:?} (left to the palette: : or C-k)",
                    wanted = crate::text::sanitize_line(wanted)
                ));
                continue;
            };
            if let Some(other) = map.rows.iter().find(|r| r.keys.contains(&k)) {
                problems.push(format!(
                    "{name}: key {} is already bound to {}; the macro is left to the palette (: or C-k) \
                     until [keys] gives it another",
                    key_label(k),
                    other.name
                ));
                continue;
            }
            map.rows[row].keys = vec![k];
            map.rows[row].label = key_label(k);
        }
        apply(&mut map.account, &account, &mut problems);
        for (mode, rows) in &mut map.modes {
            let mine: Vec<&KeyEntry> = entries.iter().filter(|e| in_context(e, mode.prefix())).collect();
            apply(rows, &mine, &mut problems);
        }
        (map, problems)
    }

    /// The account overlay's rows.
    pub fn account_rows(&self) -> &[Row<AccountAction>] {
        &self.account
    }

    /// The account overlay's action for `key`, if any.
    pub fn account_action_for(&self, key: &KeyEvent) -> Option<AccountAction> {
        let k = normalise(key);
        self.account.iter().find(|r| r.keys.contains(&k)).map(|r| r.action)
    }

    /// The rows of `mode`.
    pub fn mode_rows(&self, mode: Mode) -> &[Row<ModeAction>] {
        self.modes
            .iter()
            .find(|(m, _)| *m == mode)
            .map_or(&[], |(_, rows)| rows.as_slice())
    }

    /// What `key` does in `mode`, if anything.
    pub fn mode_action_for(&self, mode: Mode, key: &KeyEvent) -> Option<ModeAction> {
        let k = normalise(key);
        self.mode_rows(mode)
            .iter()
            .find(|r| r.keys.contains(&k))
            .map(|r| r.action)
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The action a palette key (a row's short name) names, macros too.
    pub fn action_named(&self, name: &str) -> Option<Action> {
        self.rows.iter().find(|r| r.name == name).map(|r| r.action)
    }

    /// The action bound to `key`, if any.
    pub fn action_for(&self, key: &KeyEvent) -> Option<Action> {
        let k = normalise(key);
        self.rows.iter().find(|r| r.keys.contains(&k)).map(|r| r.action)
    }

    /// The keys of `action` as help shows them ("" when it has none).
    pub fn label(&self, action: Action) -> &str {
        self.rows
            .iter()
            .find(|r| r.action == action)
            .map_or("", |r| r.label.as_str())
    }

    /// The README's key table (Markdown), generated so it cannot drift.
    pub fn markdown_table(&self) -> String {
        let mut out = String::from("| keys | action | name in `[keys]` |\n| --- | --- | --- |\n");
        let line = |keys: &[Key], help: &str, name: &str| {
            let keys: Vec<String> = keys.iter().map(|k| format!("`{}`", key_label(*k))).collect();
            let keys = keys.join(" ").replace('|', "\\|");
            format!("| {keys} | {help} | `{name}` |\n")
        };
        for r in &self.rows {
            out.push_str(&line(&r.keys, &r.help, &r.name));
        }
        out.push_str("| | **In the account overlay (`A`)** | |\n");
        for r in &self.account {
            out.push_str(&line(&r.keys, &r.help, &r.name));
        }
        for (mode, rows) in &self.modes {
            out.push_str(&format!("| | **{}** | |\n", mode.heading().trim_end_matches(':')));
            for r in rows {
                out.push_str(&line(&r.keys, &r.help, &r.name));
            }
        }
        out
    }
}

/// A macro's name in `[keys]` and the palette: `macro.NAME` (inert).
pub fn macro_name(name: &str) -> String {
    format!("macro.{}", crate::text::sanitize_line(name))
}

/// Applies one context's entries to its rows (see `Keymap::resolve`).
fn apply<A: Copy + PartialEq>(rows: &mut [Row<A>], entries: &[&KeyEntry], problems: &mut Vec<String>) {
    // Which entry claimed each key first: (key, row index, where).
    let mut claimed: Vec<(Key, usize, &str)> = Vec::new();
    for e in entries {
        let Some(row) = rows.iter().position(|r| r.name == e.action) else {
            let known: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
            problems.push(format!(
                "{}: unknown action {:?} (known: {})",
                e.at,
                e.action,
                known.join(", ")
            ));
            continue;
        };
        let mut keys = Vec::new();
        for name in &e.keys {
            let Some(k) = parse_key(name) else {
                problems.push(format!(
                    "{}: unknown key {name:?} for {} (use a character, ctrl-x, up, down, left, right, \
                     home, end, pgup, pgdn, tab, shift-tab, enter, esc, space, backspace, delete, f1-f12; \
                     ctrl- before a named key: ctrl-left)",
                    e.at, e.action
                ));
                continue;
            };
            if let Some((_, other, at)) = claimed.iter().find(|(c, i, _)| *c == k && *i != row) {
                problems.push(format!(
                    "{}: {:?} is already bound to {} ({at}); it stays there",
                    e.at, name, rows[*other].name
                ));
                continue;
            }
            if !keys.contains(&k) {
                keys.push(k);
                claimed.push((k, row, &e.at));
            }
        }
        if keys.is_empty() {
            // Nothing usable: the action keeps its defaults.
            continue;
        }
        rows[row].label = keys.iter().map(|k| key_label(*k)).collect::<Vec<_>>().join(" ");
        rows[row].keys = keys;
    }
    // Keys taken by an entry leave the defaults that held them.
    for (k, owner, at) in &claimed {
        for (i, r) in rows.iter_mut().enumerate() {
            if i != *owner && r.keys.contains(k) {
                r.keys.retain(|x| x != k);
                r.label = r.keys.iter().map(|k| key_label(*k)).collect::<Vec<_>>().join(" ");
                if r.keys.is_empty() {
                    problems.push(format!(
                        "{at}: {} took the last key of {}; it is left to the palette (: or C-k)",
                        key_label(*k),
                        r.name
                    ));
                }
            }
        }
    }
}

/// A key named in the config file: a character (`j`, `G`, `/`), `ctrl-x`
/// (or `c-x`), or a named key (`down`, `pgdn`, `shift-tab`, `f5`…), with
/// Ctrl too (`ctrl-left`).
pub fn parse_key(name: &str) -> Option<Key> {
    let plain = |code| Some(Key { code, ctrl: false });
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return plain(KeyCode::Char(c));
    }
    let lower = name.trim().to_ascii_lowercase();
    for prefix in ["ctrl-", "ctrl+", "c-"] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            let mut cs = rest.chars();
            return match (cs.next(), cs.next()) {
                (Some(c), None) if c.is_ascii_graphic() => Some(Key {
                    code: KeyCode::Char(c),
                    ctrl: true,
                }),
                // A named key with Ctrl (`ctrl-left`, `ctrl-enter`).
                (Some(_), Some(_)) => match parse_key(rest)? {
                    Key {
                        code: KeyCode::Char(_), ..
                    } => None,
                    k => Some(Key { ctrl: true, ..k }),
                },
                _ => None,
            };
        }
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok())
        && (1..=12).contains(&n)
    {
        return plain(KeyCode::F(n));
    }
    plain(match lower.as_str() {
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pgup" | "pageup" => KeyCode::PageUp,
        "pgdn" | "pagedown" => KeyCode::PageDown,
        "tab" => KeyCode::Tab,
        "shift-tab" | "s-tab" | "backtab" => KeyCode::BackTab,
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "space" => KeyCode::Char(' '),
        "backspace" => KeyCode::Backspace,
        "delete" | "del" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        _ => return None,
    })
}

/// How a key is shown: `j`, `C-k`, `↓`, `PgDn`, `S-Tab`.
pub fn key_label(k: Key) -> String {
    let base = match k.code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "S-Tab".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Bksp".into(),
        KeyCode::Delete => "Del".into(),
        KeyCode::Insert => "Ins".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}"),
    };
    if k.ctrl { format!("C-{base}") } else { base }
}

#[cfg(test)]
mod tests;
