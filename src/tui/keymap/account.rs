//! The account overlay's keys: a context of the one key table. Its rows are
//! named `account.NAME` in `[keys]` (or `[keys.account]`), shown in help
//! under their own heading and in the overlay's footer.

use crossterm::event::KeyCode;

use super::table::{Key, ch, code, ctrl};

/// What a key does in the account overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountAction {
    NextTab,
    PrevTab,
    Down,
    Up,
    Top,
    Bottom,
    PageDown,
    PageUp,
    Refresh,
    Close,
    /// Templates and channels.
    Rename,
    /// Teams.
    Members,
    /// Webhook log.
    Filter,
    /// Webhook log: event kinds and page size.
    Kinds,
    NextPage,
    PrevPage,
    /// Straight to a tab (0 is the first).
    Tab(usize),
    /// Quit frontdesk from inside the overlay.
    Quit,
}

/// One default row: action, keys, label, `[keys]` name, help.
pub struct AccountBinding {
    pub action: AccountAction,
    pub keys: &'static [Key],
    pub label: &'static str,
    pub name: &'static str,
    pub help: &'static str,
}

/// The row of the `n`th tab's key (the digit `n + 1`).
macro_rules! tab {
    ($n:literal, $c:literal, $label:literal, $name:literal, $help:literal) => {
        AccountBinding {
            action: AccountAction::Tab($n),
            keys: &[ch($c)],
            label: $label,
            name: $name,
            help: $help,
        }
    };
}

macro_rules! row {
    ($a:ident, [$($k:expr),+], $label:literal, $name:literal, $help:literal) => {
        AccountBinding { action: AccountAction::$a, keys: &[$($k),+], label: $label, name: $name, help: $help }
    };
}

pub static ACCOUNT_KEYMAP: &[AccountBinding] = &[
    row!(
        NextTab,
        [code(KeyCode::Tab)],
        "Tab",
        "account.next-tab",
        "Next tab (or 1-5)"
    ),
    row!(
        PrevTab,
        [code(KeyCode::BackTab)],
        "S-Tab",
        "account.previous-tab",
        "Previous tab"
    ),
    row!(Down, [ch('j'), code(KeyCode::Down)], "j ↓", "account.down", "Next row"),
    row!(Up, [ch('k'), code(KeyCode::Up)], "k ↑", "account.up", "Previous row"),
    row!(Top, [ch('g'), code(KeyCode::Home)], "g", "account.top", "First row"),
    row!(Bottom, [ch('G'), code(KeyCode::End)], "G", "account.bottom", "Last row"),
    row!(
        PageDown,
        [code(KeyCode::PageDown)],
        "PgDn",
        "account.page-down",
        "One screen down"
    ),
    row!(
        PageUp,
        [code(KeyCode::PageUp)],
        "PgUp",
        "account.page-up",
        "One screen up"
    ),
    row!(Refresh, [ch('r')], "r", "account.refresh", "Refresh the tab"),
    row!(
        Close,
        [code(KeyCode::Esc), ch('q')],
        "Esc q",
        "account.close",
        "Close the overlay"
    ),
    row!(Rename, [ch('e')], "e", "account.rename", "Rename template, channel"),
    row!(
        Members,
        [code(KeyCode::Enter), ch('m')],
        "Enter m",
        "account.members",
        "Details: template, team"
    ),
    row!(Filter, [ch('f')], "f", "account.filter", "Webhook log: next filter"),
    row!(Kinds, [ch('s')], "s", "account.kinds", "Webhook log: kinds, size"),
    row!(NextPage, [ch('n')], "n", "account.next-page", "Log: next page"),
    row!(PrevPage, [ch('p')], "p", "account.previous-page", "Log: page back"),
    tab!(0, '1', "1", "account.tab-1", "Templates"),
    tab!(1, '2', "2", "account.tab-2", "Channels"),
    tab!(2, '3', "3", "account.tab-3", "Teams"),
    tab!(3, '4', "4", "account.tab-4", "Plan"),
    tab!(4, '5', "5", "account.tab-5", "Webhook log"),
    row!(Quit, [ctrl('c')], "C-c", "account.quit", "Quit frontdesk"),
];
