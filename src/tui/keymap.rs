//! The one table of key bindings. `KEYMAP` holds the defaults; the
//! config file's `[keys]` table rebinds actions by their short names
//! (`resolve`), and the key handler, the help overlay, the palette and the
//! README's table are all generated from the resolved map, so they cannot
//! disagree.

mod account;
mod editing;
mod modes;
pub mod resolve;
mod table;

pub use account::{ACCOUNT_KEYMAP, AccountAction};
pub use modes::{Mode, ModeAction};
pub use resolve::{Keymap, Row, key_label, macro_name, parse_key};
pub use table::{Action, Binding, KEYMAP, Key};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Counts stop here: `99999j` is a typo, not a wish.
const MAX_COUNT: u32 = 9999;

/// A digit that starts or continues a count (`5j`, `12k`): the new count.
/// `0` only continues one, and a digit bound to an action is that action.
pub fn count_digit(map: &Keymap, key: &KeyEvent, count: Option<u32>) -> Option<u32> {
    let KeyCode::Char(c) = key.code else { return None };
    if key.modifiers.contains(KeyModifiers::CONTROL) || map.action_for(key).is_some() {
        return None;
    }
    let d = c.to_digit(10)?;
    if d == 0 && count.is_none() {
        return None;
    }
    Some((count.unwrap_or(0) * 10 + d).min(MAX_COUNT))
}

/// The character a key types into a line or a text box, if it types one:
/// a printable character without Ctrl or Alt. (Typing is text, not a
/// binding: the widgets look every other key up in the keymap.)
pub fn typed_char(key: &KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(c) if !c.is_control() && !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => {
            Some(c)
        }
        _ => None,
    }
}

/// The built-in keys, built once, for tests that press keys on a widget.
#[cfg(test)]
pub static DEFAULT_KEYS: std::sync::LazyLock<Keymap> = std::sync::LazyLock::new(Keymap::defaults);

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
