//! Canned replies (`crate::snippets`): `/` typed at the start of the text
//! or after a space opens a fuzzy picker over the snippets (shortcode and
//! label); the picker's keys are `picker.*`, what is typed filters it.
//! Choosing one puts its text, variables filled, where the `/` was, the
//! cursor where `{{cursor}}` was; a variable with no value stays as
//! written and is named. Closing it unchosen leaves `/` and what was typed
//! in the text. A `/` inside a word (a URL) is only a character.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::CursorMove;

use super::super::fx::ComposeEffect;
use super::super::state::{Compose, Stage};
use super::drafts;
use crate::snippets::{Vars, fill};
use crate::tui::form::{FuzzyPicker, PickItem, PickOutcome};
use crate::tui::shared::{Cx, Out, ToastKind};

type O<'a> = Out<'a, ComposeEffect>;

/// The snippet key (`compose.snippet`). A character (`/`) is typed, and
/// opens the picker only at the start of a word: false then, so the
/// caller types it as text. Another key (F-key, chord) opens the picker
/// at the cursor, typing nothing.
pub(super) fn pressed(st: &mut Compose, out: &mut O, key: &KeyEvent) -> bool {
    let typed = match key.code {
        KeyCode::Char(c) if !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => Some(c),
        _ => None,
    };
    if st.snippets.items.is_empty() {
        if typed.is_none() {
            out.toast(ToastKind::Info, NO_SNIPPETS);
        }
        return typed.is_none();
    }
    let Some(a) = st.area_mut() else { return false };
    let ratatui_textarea::DataCursor(row, col) = a.cursor();
    let slash = typed.map(|_| (row, col));
    if let Some(c) = typed {
        let before = a.lines()[row].chars().nth(col.wrapping_sub(1));
        let at_word_start = col == 0 || before.is_some_and(char::is_whitespace);
        if !at_word_start || a.selection_range().is_some() {
            return false;
        }
        a.insert_char(c);
        drafts::edited(st, out);
    }
    show_picker(st, slash);
    true
}

/// The picker over the snippets; `slash`: where a typed `/` is.
pub(super) fn show_picker(st: &mut Compose, slash: Option<(usize, usize)>) {
    let items = st
        .snippets
        .items
        .iter()
        .map(|s| PickItem {
            label: s.name.clone(),
            detail: s.label.clone(),
            key: s.name.clone(),
        })
        .collect();
    st.stage = Stage::Snippets {
        picker: FuzzyPicker::new("Snippet: type its shortcode", items),
        slash,
    };
}

/// Said when the snippet key is pressed with no snippets.
pub const NO_SNIPPETS: &str = "no snippets: write shortcode = \"text\" lines in snippets.toml beside the config file";

/// A key on the picker.
pub(super) fn key(st: &mut Compose, cx: &Cx, out: &mut O, key: KeyEvent, agent: Option<&str>) {
    let Stage::Snippets { picker, .. } = &mut st.stage else {
        return;
    };
    match picker.handle_key(cx.keys, key) {
        PickOutcome::Pending => {}
        PickOutcome::Cancelled => close(st, out),
        PickOutcome::Chosen(name) => choose(st, cx, out, &name, agent),
    }
}

/// Pasted text filters the picker (control characters dropped).
pub(super) fn paste(picker: &mut FuzzyPicker, text: &str) {
    let typed: String = text.chars().filter(|c| !c.is_control()).collect();
    if !typed.is_empty() {
        picker.handle_paste(&typed);
    }
}

/// Closed unchosen: what was typed after the `/` goes into the text.
fn close(st: &mut Compose, out: &mut O) {
    let Stage::Snippets { picker, .. } = std::mem::replace(&mut st.stage, Stage::Edit) else {
        return;
    };
    let typed = picker.query().to_string();
    if let Some(a) = st.area_mut()
        && !typed.is_empty()
    {
        a.insert_str(typed);
        drafts::edited(st, out);
    }
}

/// The variables for the open contact: the details pane's full record when
/// it is the one shown, else its row.
pub(super) fn vars(cx: &Cx, uuid: &str, agent: Option<&str>) -> Vars {
    let contact = cx
        .shown
        .filter(|c| c.uuid == uuid)
        .cloned()
        .or_else(|| cx.contacts.contact(uuid));
    let mut vars = match contact {
        Some(c) => Vars::of(&c, agent),
        None => Vars {
            agent_name: agent.map(str::to_string),
            ..Vars::default()
        },
    };
    // A contact's fields are outside text: one line each, inert.
    let inert = |s: &mut String| *s = crate::text::sanitize_line(s);
    vars.contact_name.iter_mut().for_each(inert);
    vars.agent_name.iter_mut().for_each(inert);
    vars.custom.values_mut().for_each(inert);
    vars
}

/// `name` chosen: the `/` goes and the snippet's text, filled, takes its
/// place; the cursor lands where `{{cursor}}` was.
fn choose(st: &mut Compose, cx: &Cx, out: &mut O, name: &str, agent: Option<&str>) {
    let Stage::Snippets { slash, .. } = std::mem::replace(&mut st.stage, Stage::Edit) else {
        return;
    };
    let (Some(uuid), Some(snippet)) = (st.open.clone(), st.snippets.get(name).cloned()) else {
        return;
    };
    let filled = fill(&snippet.text, &vars(cx, &uuid, agent));
    let Some(a) = st.area_mut() else { return };
    // The `/` typed goes (it is where it was: nothing edits the text
    // while the picker shows).
    if let Some((row, col)) = slash
        && a.lines().get(row).and_then(|l| l.chars().nth(col)).is_some()
    {
        a.move_cursor(CursorMove::Jump(
            u16::try_from(row).unwrap_or(u16::MAX),
            u16::try_from(col).unwrap_or(u16::MAX),
        ));
        a.delete_next_char();
    }
    insert(st, out, &filled);
}

/// Puts `filled` at the open composer's cursor, the cursor where
/// `{{cursor}}` was, and names the variables left as written.
pub(super) fn insert(st: &mut Compose, out: &mut O, filled: &crate::snippets::Filled) {
    let Some(a) = st.area_mut() else { return };
    let ratatui_textarea::DataCursor(row, col) = a.cursor();
    a.insert_str(&filled.text);
    let before: Vec<char> = filled.text.chars().take(filled.cursor).collect();
    let newlines = before.iter().filter(|c| **c == '\n').count();
    let tail = before.iter().rev().take_while(|c| **c != '\n').count();
    let (row, col) = if newlines == 0 {
        (row, col + tail)
    } else {
        (row + newlines, tail)
    };
    a.move_cursor(CursorMove::Jump(
        u16::try_from(row).unwrap_or(u16::MAX),
        u16::try_from(col).unwrap_or(u16::MAX),
    ));
    drafts::edited(st, out);
    if !filled.missing.is_empty() {
        let names: Vec<String> = filled.missing.iter().map(|m| format!("{{{{{m}}}}}")).collect();
        out.toast(
            ToastKind::Info,
            format!("no value for {}: left as written, fill it in", names.join(", ")),
        );
    }
}
