//! The keys of the modes that take the keyboard over from the inbox: a
//! confirmation, the history, the search line, the composer, a message's
//! popup, an overlay's Enter and Space, the Reports screen; and the
//! widgets' keys (`keymap::editing`): editing text, a text box, a list, a form,
//! the first-run screen. Each is a context of the one key table: its rows
//! are named `MODE.NAME` in `[keys]` (or `[keys.MODE]`), shown in help
//! after the inbox's and the account overlay's rows (and in the README
//! under the mode's heading).

use crossterm::event::KeyCode;

use super::table::{Key, ch, code, ctrl};

/// A mode with keys of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Help and a run's summary: what the inbox's keys do not cover.
    Overlay,
    /// "Really do this to N contacts?"
    Confirm,
    /// The history overlay (`U`).
    History,
    /// Typing a search (`/`).
    Search,
    /// The reply composer (`R`).
    Compose,
    /// A message's popup (`d`, `i`).
    Message,
    /// Editing text anywhere: a form's line, a list's filter, a text box.
    Text,
    /// A text box (the reply, a note): looked up before `Text`.
    TextBox,
    /// A list: the palette, a picker, a form's list field.
    Picker,
    /// Any form (edit, tags, note, new contact…).
    Form,
    /// The Reports screen (`S`).
    Reports,
    /// The first-run screen (before the inbox: no account yet).
    FirstRun,
}

impl Mode {
    /// In help's order. A form's rows come late so that, on a screen too
    /// small for all of help, the end of it still shows them.
    pub const ALL: [Mode; 12] = [
        Mode::Overlay,
        Mode::Confirm,
        Mode::History,
        Mode::Search,
        Mode::Compose,
        Mode::Message,
        Mode::Text,
        Mode::TextBox,
        Mode::Picker,
        Mode::Form,
        Mode::Reports,
        Mode::FirstRun,
    ];

    /// The prefix of its rows' names in `[keys]`.
    pub fn prefix(self) -> &'static str {
        match self {
            Mode::Overlay => "overlay",
            Mode::Confirm => "confirm",
            Mode::History => "history",
            Mode::Search => "search",
            Mode::Compose => "compose",
            Mode::Message => "message",
            Mode::Text => "text",
            Mode::TextBox => "box",
            Mode::Picker => "picker",
            Mode::Form => "form",
            Mode::Reports => "reports",
            Mode::FirstRun => "first-run",
        }
    }

    /// Its heading in help.
    pub fn heading(self) -> &'static str {
        match self {
            Mode::Overlay => "In help and a run's summary:",
            Mode::Confirm => "Confirming y/n: an action on many:",
            Mode::History => "In the history (U):",
            Mode::Search => "Typing a search (/):",
            Mode::Compose => "In the composer (R):",
            Mode::Message => "In a message's popup (d, i):",
            Mode::Text => "Editing text (a line, a list's filter, a text box):",
            Mode::TextBox => "In a text box (the reply, a note), before text keys:",
            Mode::Picker => "In a list (the palette, a picker, a form's list):",
            Mode::Form => "In a form:",
            Mode::Reports => "In the Reports screen (S):",
            Mode::FirstRun => "On the first-run screen (no account yet):",
        }
    }
}

/// What a key does in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModeAction {
    Close,
    PageDown,
    Yes,
    No,
    Down,
    Up,
    Top,
    Bottom,
    Undo,
    Clear,
    Done,
    DeleteChar,
    Send,
    Templates,
    Snippet,
    Editor,
    Attach,
    Cancel,
    Recheck,
    NextPeriod,
    NextGrouping,
    // A form.
    Save,
    NextField,
    PrevField,
    // A list.
    Choose,
    Toggle,
    PageUp,
    // Editing text.
    Left,
    Right,
    WordLeft,
    WordRight,
    Home,
    End,
    DeleteForward,
    DeleteWord,
    DeleteToStart,
    DeleteToEnd,
    // A text box.
    Newline,
    Indent,
    ParagraphUp,
    ParagraphDown,
    Redo,
    Cut,
    Copy,
    Paste,
    // The first-run screen.
    Demo,
    SetUp,
}

/// One default row: its mode, action, keys, label, `[keys]` name, help.
pub struct ModeBinding {
    pub mode: Mode,
    pub action: ModeAction,
    pub keys: &'static [Key],
    pub label: &'static str,
    pub name: &'static str,
    pub help: &'static str,
}

macro_rules! row {
    ($m:ident, $a:ident, [$($k:expr),+], $label:literal, $name:literal, $help:literal) => {
        ModeBinding {
            mode: Mode::$m,
            action: ModeAction::$a,
            keys: &[$($k),+],
            label: $label,
            name: $name,
            help: $help,
        }
    };
}
pub(super) use row;

pub(super) const ENTER: Key = code(KeyCode::Enter);
pub(super) const ESC: Key = code(KeyCode::Esc);
pub(super) const CTRL_ENTER: Key = Key {
    code: KeyCode::Enter,
    ctrl: true,
};

pub(super) static MODE_KEYMAP: &[ModeBinding] = &[
    row!(
        Overlay,
        Close,
        [ENTER],
        "Enter",
        "overlay.close",
        "Close help or a summary"
    ),
    row!(
        Overlay,
        PageDown,
        [ch(' ')],
        "Space",
        "overlay.page-down",
        "Help: one screen down"
    ),
    row!(Confirm, Yes, [ch('y'), ch('Y')], "y Y", "confirm.yes", "Do it"),
    row!(
        Confirm,
        No,
        [ESC, ch('n'), ch('N'), ch('q')],
        "Esc n N q",
        "confirm.no",
        "Do nothing"
    ),
    row!(
        History,
        Close,
        [ESC, ch('q'), ch('U')],
        "Esc q U",
        "history.close",
        "Close the history"
    ),
    row!(
        History,
        Down,
        [ch('j'), code(KeyCode::Down)],
        "j ↓",
        "history.down",
        "Next action"
    ),
    row!(
        History,
        Up,
        [ch('k'), code(KeyCode::Up)],
        "k ↑",
        "history.up",
        "Previous action"
    ),
    row!(
        History,
        Top,
        [ch('g'), code(KeyCode::Home)],
        "g",
        "history.top",
        "First action"
    ),
    row!(
        History,
        Bottom,
        [ch('G'), code(KeyCode::End)],
        "G",
        "history.bottom",
        "Last action"
    ),
    row!(
        History,
        Undo,
        [ENTER, ch('u')],
        "Enter u",
        "history.undo",
        "Undo the selected action"
    ),
    row!(Search, Clear, [ESC], "Esc", "search.clear", "Clear the search"),
    row!(
        Search,
        Done,
        [ENTER],
        "Enter",
        "search.done",
        "Keep results, leave the line"
    ),
    row!(
        Search,
        DeleteChar,
        [code(KeyCode::Backspace)],
        "Bksp",
        "search.delete",
        "Delete the last character"
    ),
    row!(Search, Down, [code(KeyCode::Down)], "↓", "search.down", "Next result"),
    row!(Search, Up, [code(KeyCode::Up)], "↑", "search.up", "Previous result"),
    row!(Compose, Cancel, [ESC], "Esc", "compose.cancel", "Close, keep the draft"),
    row!(
        Compose,
        Send,
        [ctrl('s'), CTRL_ENTER],
        "C-s C-Enter",
        "compose.send",
        "Send the reply"
    ),
    row!(
        Compose,
        Templates,
        [ctrl('t')],
        "C-t",
        "compose.templates",
        "Pick a template"
    ),
    row!(Compose, Editor, [ctrl('e')], "C-e", "compose.editor", "Edit in $EDITOR"),
    row!(
        Compose,
        Attach,
        [ctrl('o')],
        "C-o",
        "compose.attach",
        "Attach a file by URL"
    ),
    row!(Compose, Snippet, [ch('/')], "/", "compose.snippet", "Pick a snippet"),
    row!(
        Message,
        Yes,
        [ch('y'), ch('Y')],
        "y Y",
        "message.delete",
        "Confirm the delete"
    ),
    row!(
        Message,
        Close,
        [ESC, ch('n'), ch('N'), ch('q'), ch('i')],
        "Esc n N q i",
        "message.close",
        "Close the popup"
    ),
    row!(
        Reports,
        Down,
        [ch('j'), code(KeyCode::Down)],
        "j ↓",
        "reports.down",
        "Next group's charts"
    ),
    row!(
        Reports,
        Up,
        [ch('k'), code(KeyCode::Up)],
        "k ↑",
        "reports.up",
        "Previous group's charts"
    ),
    row!(
        Reports,
        NextPeriod,
        [ch('p'), code(KeyCode::Right)],
        "p →",
        "reports.period",
        "Period: 7, 14, 30, 90 days"
    ),
    row!(
        Reports,
        NextGrouping,
        [ch('g'), code(KeyCode::Tab)],
        "g Tab",
        "reports.group",
        "Group: all/agent/team/tag"
    ),
];
