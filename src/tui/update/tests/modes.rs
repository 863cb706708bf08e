//! Every mode's keys come from the keymap: walk each mode with every key a
//! keyboard sends, and every key that does something there must be bound
//! in that mode's rows of the key table, and that row must show in help.
//! (Typing is not a key: a character in a line or a text box is text.)

use std::sync::Arc;

use crossterm::event::{KeyEvent, KeyModifiers};

use super::*;
use crate::triage::bulk::Action as Act;
use crate::tui::keymap::{Keymap, Mode, ModeAction};
use crate::tui::overlays::{HelpRow, help_rows};
use crate::tui::thread::Popup;

mod widgets;

/// The named keys (not characters, not F-keys).
const NAMED: [KeyCode; 15] = [
    KeyCode::Esc,
    KeyCode::Enter,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Backspace,
    KeyCode::Delete,
    KeyCode::Insert,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
];

/// Every key a keyboard sends that a mode could care about.
fn every_key() -> Vec<KeyEvent> {
    let mut out: Vec<KeyEvent> = (' '..='~')
        .map(|c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
        .collect();
    out.extend(('a'..='z').map(|c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)));
    out.extend(NAMED.iter().map(|&code| KeyEvent::new(code, KeyModifiers::NONE)));
    out.extend((1..=12).map(|n| KeyEvent::new(KeyCode::F(n), KeyModifiers::NONE)));
    out.push(KeyEvent::new(KeyCode::Enter, KeyModifiers::CONTROL));
    out
}

/// Where a mode's keys are looked up.
#[derive(Clone, Copy)]
enum Table {
    /// The inbox's rows (the list, and overlays that reuse its motions).
    Inbox,
    /// The account overlay's rows.
    Account,
    /// A mode's rows, and the inbox's as well when `with_inbox`.
    Mode(Mode, bool),
    /// Modes looked up in turn, the first that binds a key wins; each only
    /// for the actions it has there (all when empty): a widget's layers.
    Layers(&'static [(Mode, &'static [ModeAction])]),
}

/// The `[keys]` name of the row that binds `key` in `table`, if any.
fn bound(keys: &Keymap, table: Table, key: &KeyEvent) -> Option<String> {
    let inbox = || {
        let a = keys.action_for(key)?;
        keys.rows().iter().find(|r| r.action == a).map(|r| r.name.clone())
    };
    let in_mode = |mode: Mode, only: &[ModeAction]| {
        let a = keys.mode_action_for(mode, key)?;
        if !only.is_empty() && !only.contains(&a) {
            return None;
        }
        keys.mode_rows(mode)
            .iter()
            .find(|r| r.action == a)
            .map(|r| r.name.clone())
    };
    match table {
        Table::Inbox => inbox(),
        Table::Account => {
            let a = keys.account_action_for(key)?;
            keys.account_rows()
                .iter()
                .find(|r| r.action == a)
                .map(|r| r.name.clone())
        }
        Table::Mode(mode, with_inbox) => in_mode(mode, &[]).or_else(|| if with_inbox { inbox() } else { None }),
        Table::Layers(layers) => layers.iter().find_map(|(mode, only)| in_mode(*mode, only)),
    }
}

/// True when `key` is text in a mode that types (`text`): a plain
/// character, or (in a text box) the box's own editing keys.
fn is_text(key: &KeyEvent, text: Text) -> bool {
    // 1…9 are numbers, not keys: a count (`5j`) or a view's number
    // (help's `next-view` row says so).
    if matches!(text, Text::Digits) {
        return matches!(key.code, KeyCode::Char('1'..='9')) && key.modifiers.is_empty();
    }
    let plain_char = matches!(key.code, KeyCode::Char(_)) && !key.modifiers.contains(KeyModifiers::CONTROL);
    match text {
        Text::None | Text::Digits => false,
        Text::Line | Text::Box => plain_char,
        Text::Ticks => plain_char && key.code != KeyCode::Char(' '),
        // The text box's editing keys (its arrows and Ctrl chords such
        // as C-a, C-w, C-u), left out of the composer's own walk: they are
        // in the keymap now (box.*, text.*), and `widgets`' walk of the
        // reply's text box checks them.
        Text::Area => {
            plain_char
                || (key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char(_)))
                || (key.modifiers.is_empty()
                    && matches!(
                        key.code,
                        KeyCode::Enter
                            | KeyCode::Tab
                            | KeyCode::Backspace
                            | KeyCode::Delete
                            | KeyCode::Left
                            | KeyCode::Right
                            | KeyCode::Up
                            | KeyCode::Down
                            | KeyCode::Home
                            | KeyCode::End
                            | KeyCode::PageUp
                            | KeyCode::PageDown
                    ))
        }
    }
}

#[derive(Clone, Copy)]
enum Text {
    None,
    /// The list: digits are numbers.
    Digits,
    Line,
    Area,
    /// A text box whose keys are all in the keymap: only a character is
    /// text, and a key the keymap lets go of may be the box's again.
    Box,
    /// A list that ticks: a character is text (its filter), but Space is
    /// a key (`picker.toggle`), typed when the keymap lets go of it.
    Ticks,
}

/// Walks one mode: `open` builds a model in it, afresh for each key.
fn walk(what: &str, open: fn() -> Model, table: Table, text: Text) {
    let keys = open().keys;
    walk_with(
        what,
        &keys,
        &|keys, k| pressed(open, keys, k),
        table,
        text,
        &every_key(),
    );
}

/// True when `k` does something to the model `open` builds, with `keys`.
fn pressed(open: fn() -> Model, keys: &Arc<Keymap>, k: KeyEvent) -> bool {
    let mut m = open();
    m.keys = keys.clone();
    let before = format!("{m:?}");
    let fx = update(&mut m, Msg::Key(k));
    !fx.is_empty() || format!("{m:?}") != before
}

/// What takes the keys: true when the key did something with that keymap.
type Press<'a> = &'a dyn Fn(&Arc<Keymap>, KeyEvent) -> bool;

/// Walks `press` with `every` key and the `keys` it starts with.
fn walk_with(what: &str, keys: &Arc<Keymap>, press: Press, table: Table, text: Text, every: &[KeyEvent]) {
    let mut help: Vec<String> = help_rows(keys)
        .into_iter()
        .filter_map(|r| match r {
            HelpRow::Key { name, .. } => Some(name),
            HelpRow::Heading(_) => None,
        })
        .collect();
    // The first-run screen names its keys itself (help is the inbox's).
    if let Table::Mode(Mode::FirstRun, _) = table {
        help.extend(keys.mode_rows(Mode::FirstRun).iter().map(|r| r.name.to_string()));
    }
    let mut unbound = Vec::new();
    for &k in every {
        if is_text(&k, text) || !press(keys, k) {
            continue;
        }
        match bound(keys, table, &k) {
            Some(name) => {
                assert!(help.contains(&name), "{what}: {name} is not in help");
                follows_the_binding(what, press, table, &name, k, text);
            }
            None => unbound.push(format!(
                "{:?}{}",
                k.code,
                if k.modifiers.is_empty() { "" } else { "+ctrl" }
            )),
        }
    }
    assert!(
        unbound.is_empty(),
        "{what}: these keys do something but are not in the keymap: {unbound:?}"
    );
}

/// With `name` rebound to F12, `k` does nothing in the mode and F12 does
/// something: the handler reads the keymap, not a literal. (In a text
/// box a key the keymap lets go of is the box's again: C-Enter a newline;
/// in layers a lower one's: Tab, no longer `form.next`, is `picker.down`.)
fn follows_the_binding(what: &str, press: Press, table: Table, name: &str, k: KeyEvent, text: Text) {
    let entry = crate::config::KeyEntry {
        action: name.into(),
        keys: vec!["f12".into()],
        at: "test".into(),
    };
    let (keys, problems) = Keymap::resolve(&[entry]);
    assert!(problems.is_empty(), "{problems:?}");
    let keys = Arc::new(keys);
    let typed = matches!(text, Text::Ticks) && k.code == KeyCode::Char(' ');
    let falls_to_text = typed || matches!(text, Text::Area | Text::Box);
    let falls_to_a_layer = bound(&keys, table, &k).is_some_and(|other| other != name);
    assert!(
        falls_to_text || falls_to_a_layer || !press(&keys, k),
        "{what}: {k:?} still acts with {name} bound to F12 only"
    );
    let f12 = KeyEvent::new(KeyCode::F(12), KeyModifiers::NONE);
    assert!(press(&keys, f12), "{what}: F12 does nothing with {name} bound to it");
}

fn list() -> Model {
    model_with(5, 80, 24)
}

fn help() -> Model {
    let mut m = model_with(5, 80, 24);
    m.overlay = Some(Overlay::Help { scroll: 1 });
    m
}

fn confirm() -> Model {
    let mut m = model_with(40, 80, 24);
    update(&mut m, key('*'));
    update(&mut m, key('c'));
    assert!(matches!(m.overlay, Some(Overlay::Confirm(_))), "{:?}", m.overlay);
    m
}

fn history() -> Model {
    let mut m = model_with(20, 80, 24);
    for row in 0..3 {
        if row > 0 {
            update(&mut m, key('j'));
        }
        let fx = update(&mut m, key('c'));
        crate::tui::act::tests::undo::answer(
            &mut m,
            &fx,
            crate::tui::act::tests::undo::server(&contact(row), &Act::Close),
        );
    }
    update(&mut m, key('U'));
    update(&mut m, key('j'));
    assert!(
        matches!(m.overlay, Some(Overlay::History { selected: 1 })),
        "{:?}",
        m.overlay
    );
    m
}

fn search() -> Model {
    let mut m = model_with(5, 80, 24);
    update(&mut m, key('/'));
    type_text(&mut m, "an");
    m
}

fn compose() -> Model {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('R'));
    type_text(&mut m, "hi");
    m
}

fn popup(delete: bool) -> Model {
    let mut m = model_with(5, 160, 48);
    let (id, uuid) = (
        m.thread.loading.unwrap_or(0),
        m.thread.contact.clone().unwrap_or_default(),
    );
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id,
            contact: uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        }),
    );
    update(&mut m, code(KeyCode::Tab));
    // The second message is one sent from this side.
    update(&mut m, key('k'));
    update(&mut m, key(if delete { 'd' } else { 'i' }));
    let open = match &m.thread.popup {
        Some(Popup::ConfirmDelete { .. }) => delete,
        Some(Popup::Info { .. }) => !delete,
        _ => false,
    };
    assert!(open, "the popup is open");
    m
}

fn account() -> Model {
    let mut m = model_with(5, 80, 24);
    update(&mut m, key('A'));
    assert!(m.account.is_some());
    m
}

#[test]
fn the_list_handles_only_keys_in_the_keymap() {
    walk("list", list, Table::Inbox, Text::Digits);
}

#[test]
fn help_handles_only_keys_in_the_keymap() {
    walk("help", help, Table::Mode(Mode::Overlay, true), Text::None);
}

#[test]
fn a_confirmation_handles_only_keys_in_the_keymap() {
    walk("confirm", confirm, Table::Mode(Mode::Confirm, false), Text::None);
}

#[test]
fn the_history_handles_only_keys_in_the_keymap() {
    walk("history", history, Table::Mode(Mode::History, false), Text::None);
}

#[test]
fn the_search_line_handles_only_keys_in_the_keymap() {
    // The search's own keys, then the line's readline ones (C-u, C-w).
    const LAYERS: &[(Mode, &[ModeAction])] = &[
        (Mode::Search, &[]),
        (Mode::Text, &[ModeAction::DeleteToStart, ModeAction::DeleteWord]),
    ];
    walk("search", search, Table::Layers(LAYERS), Text::Line);
}

#[test]
fn the_composer_handles_only_keys_in_the_keymap() {
    walk("compose", compose, Table::Mode(Mode::Compose, false), Text::Area);
}

#[test]
fn a_message_popup_handles_only_keys_in_the_keymap() {
    walk(
        "delete popup",
        || popup(true),
        Table::Mode(Mode::Message, false),
        Text::None,
    );
    walk(
        "info popup",
        || popup(false),
        Table::Mode(Mode::Message, false),
        Text::None,
    );
}

#[test]
fn the_account_overlay_handles_only_keys_in_the_keymap() {
    walk("account", account, Table::Account, Text::None);
}

fn reports() -> Model {
    let mut m = model_with(5, 80, 24);
    let fx = update(&mut m, key('S'));
    let Some(crate::tui::effect::Effect::Slice(crate::tui::slices::SliceEffect::Reports(
        crate::tui::reports::ReportsEffect::Compute { id, .. },
    ))) = fx.first()
    else {
        panic!("S computes a report: {fx:?}");
    };
    update(
        &mut m,
        Msg::Slice(crate::tui::slices::SliceMsg::Reports(
            crate::tui::reports::ReportsMsg::Computed {
                id: *id,
                result: Err("no index in this test".into()),
            },
        )),
    );
    assert!(m.slices.reports.open);
    m
}

#[test]
fn the_reports_screen_handles_only_keys_in_the_keymap() {
    walk("reports", reports, Table::Mode(Mode::Reports, true), Text::None);
}
