//! The widgets' keys: editing text (every line, a list's filter and a text
//! box), a text box's own, a list's, a form's and the first-run screen's.
//!
//! A widget looks its keys up in layers, the first that binds a key wins:
//! a form: `form.*` (the form's own: cancel, save, next, previous), then
//! the focused field's: a line `form.done`/`form.down`/`form.up` and
//! `text.*`; a list `picker.*` and `text.*`; a text box `box.*` and
//! `text.*`. The palette and the pickers: `picker.*`, then `text.*`. A
//! plain character no layer binds is typed.

use crossterm::event::KeyCode;

use super::modes::{CTRL_ENTER, ENTER, ESC, Mode, ModeAction, ModeBinding, row};
use super::table::{Key, ch, code, ctrl};

const fn ctrl_code(code: KeyCode) -> Key {
    Key { code, ctrl: true }
}

const TAB: Key = code(KeyCode::Tab);
const BACKTAB: Key = code(KeyCode::BackTab);
const UP: Key = code(KeyCode::Up);
const DOWN: Key = code(KeyCode::Down);
const LEFT: Key = code(KeyCode::Left);
const RIGHT: Key = code(KeyCode::Right);
const HOME: Key = code(KeyCode::Home);
const END: Key = code(KeyCode::End);
const PGUP: Key = code(KeyCode::PageUp);
const PGDN: Key = code(KeyCode::PageDown);
const BKSP: Key = code(KeyCode::Backspace);
const DEL: Key = code(KeyCode::Delete);

pub(super) static EDIT_KEYMAP: &[ModeBinding] = &[
    // Editing text: the keys every line input had, and the text box's
    // (C-b, C-f, C-h, C-d, C-j, C-k) that now edit a line the same way.
    row!(Text, Left, [LEFT, ctrl('b')], "← C-b", "text.left", "Back a character"),
    row!(
        Text,
        Right,
        [RIGHT, ctrl('f')],
        "→ C-f",
        "text.right",
        "Forward a character"
    ),
    row!(
        Text,
        WordLeft,
        [ctrl_code(KeyCode::Left)],
        "C-←",
        "text.word-left",
        "Back a word"
    ),
    row!(
        Text,
        WordRight,
        [ctrl_code(KeyCode::Right)],
        "C-→",
        "text.word-right",
        "Forward a word"
    ),
    row!(
        Text,
        Home,
        [HOME, ctrl('a')],
        "Home C-a",
        "text.home",
        "To the line's start"
    ),
    row!(Text, End, [END, ctrl('e')], "End C-e", "text.end", "To the line's end"),
    row!(
        Text,
        DeleteChar,
        [BKSP, ctrl('h')],
        "Bksp C-h",
        "text.delete-back",
        "Delete backward"
    ),
    row!(
        Text,
        DeleteForward,
        [DEL, ctrl('d')],
        "Del C-d",
        "text.delete-forward",
        "Delete forward"
    ),
    row!(
        Text,
        DeleteWord,
        [ctrl('w')],
        "C-w",
        "text.delete-word",
        "Delete a word back"
    ),
    row!(
        Text,
        DeleteToStart,
        [ctrl('u'), ctrl('j')],
        "C-u C-j",
        "text.delete-to-start",
        "Delete to start"
    ),
    row!(
        Text,
        DeleteToEnd,
        [ctrl('k')],
        "C-k",
        "text.delete-to-end",
        "Delete to end"
    ),
    // A text box: ratatui-textarea's own keys, named.
    row!(
        TextBox,
        Newline,
        [ENTER, ctrl('m'), CTRL_ENTER],
        "Enter C-m",
        "box.newline",
        "New line"
    ),
    row!(TextBox, Indent, [TAB], "Tab", "box.indent", "Indent (a reply)"),
    row!(TextBox, Up, [UP, ctrl('p')], "↑ C-p", "box.up", "Line up"),
    row!(TextBox, Down, [DOWN, ctrl('n')], "↓ C-n", "box.down", "Line down"),
    row!(TextBox, PageUp, [PGUP], "PgUp", "box.page-up", "Page up"),
    row!(
        TextBox,
        PageDown,
        [PGDN, ctrl('v')],
        "PgDn C-v",
        "box.page-down",
        "Page down"
    ),
    row!(
        TextBox,
        ParagraphUp,
        [ctrl_code(KeyCode::Up)],
        "C-↑",
        "box.paragraph-up",
        "Paragraph up"
    ),
    row!(
        TextBox,
        ParagraphDown,
        [ctrl_code(KeyCode::Down)],
        "C-↓",
        "box.paragraph-down",
        "Paragraph down"
    ),
    row!(TextBox, Undo, [ctrl('u')], "C-u", "box.undo", "Undo"),
    row!(TextBox, Redo, [ctrl('r')], "C-r", "box.redo", "Redo"),
    row!(TextBox, Cut, [ctrl('x')], "C-x", "box.cut", "Cut the selection"),
    row!(TextBox, Copy, [ctrl('c')], "C-c", "box.copy", "Copy the selection"),
    row!(TextBox, Paste, [ctrl('y')], "C-y", "box.paste", "Paste the cut or copy"),
    // A list.
    row!(
        Picker,
        Choose,
        [ENTER, CTRL_ENTER],
        "Enter",
        "picker.choose",
        "Choose (form: save)"
    ),
    row!(Picker, Toggle, [ch(' ')], "Space", "picker.toggle", "Tick or untick"),
    row!(
        Picker,
        Cancel,
        [ESC, ctrl('c')],
        "Esc C-c",
        "picker.cancel",
        "Close the list"
    ),
    row!(
        Picker,
        Down,
        [DOWN, ctrl('n'), TAB],
        "↓ C-n Tab",
        "picker.down",
        "Next entry"
    ),
    row!(
        Picker,
        Up,
        [UP, ctrl('p'), BACKTAB],
        "↑ C-p S-Tab",
        "picker.up",
        "Previous entry"
    ),
    row!(Picker, PageDown, [PGDN], "PgDn", "picker.page-down", "A page down"),
    row!(Picker, PageUp, [PGUP], "PgUp", "picker.page-up", "A page up"),
    // A form: its own keys first, then a line's (Enter, ↓, ↑).
    row!(Form, Cancel, [ESC], "Esc", "form.cancel", "Close the form"),
    row!(Form, Save, [ctrl('s')], "C-s", "form.save", "Save, from any field"),
    row!(Form, NextField, [TAB], "Tab", "form.next", "Next field"),
    row!(Form, PrevField, [BACKTAB], "S-Tab", "form.previous", "Previous field"),
    row!(
        Form,
        Done,
        [ENTER, CTRL_ENTER],
        "Enter",
        "form.done",
        "One-line field: save"
    ),
    row!(Form, Down, [DOWN], "↓", "form.down", "One-line field: next field"),
    row!(Form, Up, [UP], "↑", "form.up", "One-line field: previous field"),
    row!(
        Form,
        Recheck,
        [ctrl('f')],
        "C-f",
        "form.recheck",
        "New contact: was it made?"
    ),
    // The first-run screen.
    row!(
        FirstRun,
        Demo,
        [ch('d'), ch('D')],
        "d D",
        "first-run.demo",
        "Open the demo"
    ),
    row!(
        FirstRun,
        SetUp,
        [ch('s'), ch('S')],
        "s S",
        "first-run.set-up",
        "Set up an account"
    ),
    row!(
        FirstRun,
        Close,
        [ch('q'), ch('Q'), ESC, ctrl('c')],
        "q Esc C-c",
        "first-run.leave",
        "Leave, nothing saved"
    ),
];
