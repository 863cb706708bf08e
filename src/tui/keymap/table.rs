//! The default keys: every action, the key or keys it starts with, its
//! short name (for `[keys]` and the palette) and its line in help.

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
    /// Enter: the selected contact's thread (on a narrow screen).
    Open,
    Search,
    Filter,
    ServerFilter,
    NextView,
    PrevView,
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
    /// `o`: open the selected message's attachment or link.
    OpenLink,
    Undo,
    History,
    Mark,
    MarkRange,
    MarkAll,
    Repeat,
    Reports,
    Snooze,
    Notifications,
    /// The session's macro at this index (`Session::macros`): a row of
    /// the resolved map, not of this table.
    Macro(u16),
}

/// A key as the table writes it: a code plus whether Ctrl is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub(super) const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}
pub(super) const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}
pub(super) const fn code(code: KeyCode) -> Key {
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
        "next",
        "Next contact / scroll down"
    ),
    bind!(
        MoveUp,
        [ch('k'), code(KeyCode::Up)],
        "k ↑",
        "previous",
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
    bind!(
        Open,
        [code(KeyCode::Enter)],
        "Enter",
        "open",
        "Open the thread (one pane at a time)"
    ),
    bind!(Search, [ch('/')], "/", "search", "Search the whole account"),
    bind!(NextView, [ch(']')], "]", "next-view", "Next view (1…9 jump to one)"),
    bind!(PrevView, [ch('[')], "[", "previous-view", "Previous view"),
    bind!(Filter, [ch('f')], "f", "filter", "Filter this view, save it as a view"),
    bind!(
        ServerFilter,
        [ch('F')],
        "F",
        "server-filter",
        "API filter: source, tags, team"
    ),
    bind!(ToggleClosed, [ch('c')], "c", "close", "Close or reopen conversation"),
    bind!(CloseAndNext, [ch('C')], "C", "close-next", "Close, go to next open one"),
    bind!(Edit, [ch('e')], "e", "edit", "Edit name and custom fields"),
    bind!(Tags, [ch('t')], "t", "tags", "Edit tags"),
    bind!(Assign, [ch('a')], "a", "assign", "Assign or unassign someone"),
    bind!(Team, [ch('T')], "T", "team", "Set the team (thread: funnel)"),
    bind!(Note, [ch('n')], "n", "note", "Edit the note"),
    bind!(Bot, [ch('b')], "b", "bot", "Start or stop the bot"),
    bind!(Mark, [ch(' ')], "Space", "mark", "Mark or unmark, go to next"),
    bind!(MarkRange, [ch('V')], "V", "mark-range", "Mark a range: V, move, V"),
    bind!(MarkAll, [ch('*')], "*", "mark-all", "Mark all in view (again: none)"),
    bind!(Repeat, [ch('.')], ".", "repeat", "Repeat last action on the marks"),
    bind!(Reply, [ch('R')], "R", "reply", "Reply to the customer"),
    bind!(
        NewContact,
        [ch('N')],
        "N",
        "new-contact",
        "New contact (thread: a note)"
    ),
    bind!(Availability, [ch('v')], "v", "availability", "Toggle my availability"),
    bind!(CustomStatus, [ch('s')], "s", "custom-status", "Set my custom status"),
    bind!(CopyLink, [ch('y')], "y", "copy-link", "Copy chat link (OSC 52)"),
    bind!(Undo, [ch('u')], "u", "undo", "Undo the last action (10 s)"),
    bind!(History, [ch('U')], "U", "history", "Last 20 actions: undo one"),
    bind!(Refresh, [ch('r')], "r", "refresh", "Refresh now"),
    bind!(Help, [ch('?')], "?", "help", "Show the keys"),
    bind!(Palette, [ch(':'), ctrl('k')], ": C-k", "palette", "Command palette"),
    bind!(Account, [ch('A')], "A", "account", "Templates, channels, teams, log"),
    bind!(Redraw, [ctrl('l')], "C-l", "redraw", "Redraw the screen"),
    bind!(
        Cancel,
        [code(KeyCode::Esc)],
        "Esc",
        "cancel",
        "Stop a run / clear marks, search"
    ),
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
    bind!(OpenLink, [ch('o')], "o", "open-link", "Open the message's file or link"),
    bind!(Reports, [ch('S')], "S", "reports", "Reports (no API requests)"),
    bind!(Snooze, [ch('z')], "z", "snooze", "Snooze; on a snoozed one, wake"),
    bind!(
        Notifications,
        [ch('B')],
        "B",
        "notifications",
        "Snooze or mute notifications"
    ),
];

/// The key as the table writes it: Ctrl letters lower-cased, Shift dropped.
pub(crate) fn normalise(key: &KeyEvent) -> Key {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let code = match key.code {
        KeyCode::Char(c) if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
        c => c,
    };
    Key { code, ctrl }
}

impl Action {
    /// Motions a count repeats (`5j`); other actions run once.
    pub fn takes_count(self) -> bool {
        matches!(
            self,
            Action::MoveDown | Action::MoveUp | Action::PageDown | Action::PageUp
        )
    }
}
