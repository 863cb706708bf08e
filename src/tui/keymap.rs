//! The one table of key bindings. The key handler, the help overlay and the
//! command palette are all generated from `KEYMAP`, so they cannot disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Everything the user can ask for with one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    MoveDown,
    MoveUp,
    Top,
    Bottom,
    PageDown,
    PageUp,
    NextPane,
    PrevPane,
    Search,
    Filter,
    ToggleClosed,
    CloseAndNext,
    Edit,
    Tags,
    Assign,
    Team,
    Note,
    Bot,
    Reply,
    NewContact,
    Availability,
    CustomStatus,
    CopyLink,
    Refresh,
    Help,
    Palette,
    Account,
    Redraw,
    Cancel,
    Quit,
    DeleteMessage,
    MessageInfo,
}

/// A key as the table writes it: a code plus whether Ctrl is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}
const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}
const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

/// One row of the table.
#[derive(Debug)]
pub struct Binding {
    pub action: Action,
    pub keys: &'static [Key],
    /// How help shows the keys.
    pub label: &'static str,
    /// The palette's name for the action (also its key in the picker).
    pub name: &'static str,
    /// What it does, for help and the palette.
    pub help: &'static str,
}

macro_rules! bind {
    ($action:ident, [$($k:expr),+], $label:literal, $name:literal, $help:literal) => {
        Binding { action: Action::$action, keys: &[$($k),+], label: $label, name: $name, help: $help }
    };
}

pub static KEYMAP: &[Binding] = &[
    bind!(
        MoveDown,
        [ch('j'), code(KeyCode::Down)],
        "j ↓",
        "move-down",
        "Next contact / scroll down"
    ),
    bind!(
        MoveUp,
        [ch('k'), code(KeyCode::Up)],
        "k ↑",
        "move-up",
        "Previous contact / scroll up"
    ),
    bind!(Top, [ch('g'), code(KeyCode::Home)], "g", "top", "Go to the top"),
    bind!(
        Bottom,
        [ch('G'), code(KeyCode::End)],
        "G",
        "bottom",
        "Go to the end, keep loading"
    ),
    bind!(
        PageDown,
        [code(KeyCode::PageDown)],
        "PgDn",
        "page-down",
        "One screen down"
    ),
    bind!(PageUp, [code(KeyCode::PageUp)], "PgUp", "page-up", "One screen up"),
    bind!(NextPane, [code(KeyCode::Tab)], "Tab", "next-pane", "Next pane"),
    bind!(
        PrevPane,
        [code(KeyCode::BackTab)],
        "S-Tab",
        "previous-pane",
        "Previous pane"
    ),
    bind!(Search, [ch('/')], "/", "search", "Search loaded contacts"),
    bind!(Filter, [ch('f')], "f", "filter", "Filter: source, tags, team"),
    bind!(
        ToggleClosed,
        [ch('c')],
        "c",
        "close-reopen",
        "Close or reopen conversation"
    ),
    bind!(
        CloseAndNext,
        [ch('C')],
        "C",
        "close-and-next",
        "Close, go to next open one"
    ),
    bind!(Edit, [ch('e')], "e", "edit", "Edit name and custom fields"),
    bind!(Tags, [ch('t')], "t", "tags", "Edit tags"),
    bind!(Assign, [ch('a')], "a", "assign", "Assign or unassign someone"),
    bind!(Team, [ch('T')], "T", "team", "Set the team"),
    bind!(Note, [ch('n')], "n", "note", "Edit the note"),
    bind!(Bot, [ch('b')], "b", "bot", "Start or stop the bot"),
    bind!(Reply, [ch('R')], "R", "reply", "Reply to the customer"),
    bind!(NewContact, [ch('N')], "N", "new-contact", "Create a contact"),
    bind!(Availability, [ch('v')], "v", "availability", "Toggle my availability"),
    bind!(CustomStatus, [ch('s')], "s", "custom-status", "Set my custom status"),
    bind!(CopyLink, [ch('y')], "y", "copy-link", "Copy chat link (OSC 52)"),
    bind!(Refresh, [ch('r')], "r", "refresh", "Refresh now"),
    bind!(Help, [ch('?')], "?", "help", "Show the keys"),
    bind!(Palette, [ch(':'), ctrl('k')], ": C-k", "palette", "Command palette"),
    bind!(Account, [ch('A')], "A", "account", "Templates, channels, teams, log"),
    bind!(Redraw, [ctrl('l')], "C-l", "redraw", "Redraw the screen"),
    bind!(Cancel, [code(KeyCode::Esc)], "Esc", "cancel", "Cancel / clear search"),
    bind!(Quit, [ch('q'), ctrl('c')], "q C-c", "quit", "Quit"),
    bind!(
        DeleteMessage,
        [ch('d')],
        "d",
        "delete-message",
        "Delete the selected message"
    ),
    bind!(
        MessageInfo,
        [ch('i')],
        "i",
        "message-info",
        "Details of the selected message"
    ),
];

/// The action bound to `key`, if any. Shift is ignored for characters
/// (terminals disagree on whether `G` carries it).
pub fn action_for(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let code = match key.code {
        KeyCode::Char(c) if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
        c => c,
    };
    KEYMAP
        .iter()
        .find(|b| b.keys.iter().any(|k| k.code == code && k.ctrl == ctrl))
        .map(|b| b.action)
}

/// The table row of `action`.
pub fn binding(action: Action) -> &'static Binding {
    KEYMAP
        .iter()
        .find(|b| b.action == action)
        .expect("every action is in KEYMAP")
}

/// The action a palette key names.
pub fn action_named(name: &str) -> Option<Action> {
    KEYMAP.iter().find(|b| b.name == name).map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn every_key_maps_to_its_own_row() {
        for b in KEYMAP {
            for k in b.keys {
                let m = if k.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                assert_eq!(action_for(&key(k.code, m)), Some(b.action), "{}", b.name);
            }
        }
    }

    #[test]
    fn names_are_unique_and_resolve() {
        for b in KEYMAP {
            assert_eq!(action_named(b.name), Some(b.action));
            assert_eq!(binding(b.action).name, b.name);
        }
    }

    #[test]
    fn shifted_letters_and_ctrl_keys() {
        assert_eq!(
            action_for(&key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::Bottom)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('k'), KeyModifiers::CONTROL)),
            Some(Action::Palette)
        );
        assert_eq!(
            action_for(&key(KeyCode::Char('k'), KeyModifiers::NONE)),
            Some(Action::MoveUp)
        );
        assert_eq!(action_for(&key(KeyCode::Char('x'), KeyModifiers::NONE)), None);
    }
}
