//! The one table of key bindings. `KEYMAP` holds the defaults; the
//! config file's `[keys]` table rebinds actions by their short names
//! (`resolve`), and the key handler, the help overlay, the palette and the
//! README's table are all generated from the resolved map, so they cannot
//! disagree.

mod account;
mod resolve;
mod table;

pub use account::{ACCOUNT_KEYMAP, AccountAction};
pub use resolve::{Keymap, Row, active, install, key_label, parse_key};
pub use table::{Action, Binding, KEYMAP, Key};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::model::account::AccountTab;

/// The action bound to `key` in the active (resolved) map, if any. Shift
/// is ignored for characters (terminals disagree on whether `G` carries it).
pub fn action_for(key: &KeyEvent) -> Option<Action> {
    active().action_for(key)
}

/// Counts stop here: `99999j` is a typo, not a wish.
const MAX_COUNT: u32 = 9999;

/// A digit that starts or continues a count (`5j`, `12k`): the new count.
/// `0` only continues one, and a digit bound to an action is that action.
pub fn count_digit(key: &KeyEvent, count: Option<u32>) -> Option<u32> {
    let KeyCode::Char(c) = key.code else { return None };
    if key.modifiers.contains(KeyModifiers::CONTROL) || action_for(key).is_some() {
        return None;
    }
    let d = c.to_digit(10)?;
    if d == 0 && count.is_none() {
        return None;
    }
    Some((count.unwrap_or(0) * 10 + d).min(MAX_COUNT))
}

/// The first key of `action` in the active map, for footers ("" when it
/// has none).
pub fn first_key(action: Action) -> String {
    active().label(action).split(' ').next().unwrap_or("").to_string()
}

/// The default row of `action`.
pub fn binding(action: Action) -> Option<&'static Binding> {
    KEYMAP.iter().find(|b| b.action == action)
}

/// The action a palette key (a short name) names.
pub fn action_named(name: &str) -> Option<Action> {
    KEYMAP.iter().find(|b| b.name == name).map(|b| b.action)
}

#[cfg(test)]
mod tests;

/// The overlay's footer for `tab`: (keys, what) from the one key table,
/// so rebound keys show as they are.
pub fn account_footer(tab: AccountTab) -> Vec<(String, &'static str)> {
    use AccountAction as A;
    let map = active();
    let first = |a: A| -> String {
        let label = map
            .account_rows()
            .iter()
            .find(|r| r.action == a)
            .map_or("", |r| r.label.as_str());
        label.split(' ').next().unwrap_or("").to_string()
    };
    // One action shows all its keys; a group shows the first key of each.
    let join = |actions: &[A]| match actions {
        [one] => map
            .account_rows()
            .iter()
            .find(|r| r.action == *one)
            .map_or(String::new(), |r| r.label.clone()),
        many => many.iter().map(|a| first(*a)).collect::<Vec<_>>().join(" "),
    };
    let mut out = match tab {
        AccountTab::Templates => vec![(first(A::Members), "details"), (join(&[A::Rename]), "rename")],
        AccountTab::Channels => vec![(join(&[A::Rename]), "rename")],
        AccountTab::Teams => vec![(join(&[A::Members]), "team")],
        AccountTab::Plan => vec![],
        AccountTab::Webhooks => vec![
            (join(&[A::Filter]), "status"),
            (join(&[A::Kinds]), "kinds"),
            (join(&[A::NextPage, A::PrevPage]), "page"),
        ],
    };
    out.extend([
        (format!("{} 1-5", first(A::NextTab)), "tab"),
        (join(&[A::Down, A::Up, A::Top, A::Bottom]), "move"),
        (join(&[A::Refresh]), "refresh"),
        (join(&[A::Close]), "close"),
    ]);
    out
}
