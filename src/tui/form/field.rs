//! The live state of one form field: the text being edited, a picker's
//! query and highlight, the note's text area; and its validation.

use chrono::NaiveDate;
use crossterm::event::{KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, Scrolling, TextArea, WrapMode};

use super::fuzzy::fuzzy_filter;
use super::input::LineInput;
use super::spec::{FieldKind, FormValue, TextCheck};
use crate::api::model::{FieldType, FieldValue, validate_field_value};
use crate::tui::keymap::{Keymap, Mode, ModeAction as M, typed_char};
use crate::tui::text::sanitize;

/// What a row of a picker stands for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RowValue {
    /// The "(none)" row of a Choice with `allow_none`.
    Nothing,
    /// An option, by index.
    Option(usize),
    /// The typed query, as a new entry.
    Custom(String),
}

/// A picker's query and highlighted row.
#[derive(Clone, Debug, Default)]
pub(crate) struct PickerState {
    pub(crate) query: LineInput,
    pub(crate) cursor: usize,
}

#[derive(Clone, Debug)]
pub(crate) enum FieldState {
    Text {
        input: LineInput,
        check: TextCheck,
    },
    Choice {
        options: Vec<String>,
        selected: Option<String>,
        allow_none: bool,
        allow_custom: bool,
        none_label: String,
        picker: PickerState,
    },
    Multi {
        options: Vec<String>,
        selected: Vec<String>,
        allow_custom: bool,
        picker: PickerState,
    },
    Note {
        area: Box<TextArea<'static>>,
        max_chars: usize,
    },
}

/// Builds the note editor: server text is made inert before it is
/// editable, its emoji written as every terminal draws them (the editor
/// draws what it holds).
pub(crate) fn note_area(value: &str) -> TextArea<'static> {
    let inert = sanitize(value, true);
    let clean = crate::text::plain_emoji(&inert);
    let mut area = TextArea::new(clean.split('\n').map(str::to_string).collect());
    area.set_wrap_mode(WrapMode::WordOrGlyph);
    area.move_cursor(CursorMove::Bottom);
    area.move_cursor(CursorMove::End);
    area
}

impl FieldState {
    pub(crate) fn from_kind(kind: FieldKind) -> FieldState {
        match kind {
            FieldKind::Text { value, check } => FieldState::Text {
                input: LineInput::new(value),
                check,
            },
            FieldKind::Choice {
                mut options,
                selected,
                allow_none,
                allow_custom,
            } => {
                // A current value the list does not know stays visible and choosable.
                if let Some(s) = selected.as_ref().filter(|s| !s.is_empty() && !options.contains(s)) {
                    options.insert(0, s.clone());
                }
                let mut f = FieldState::Choice {
                    options,
                    selected: selected.filter(|s| !s.is_empty()),
                    allow_none,
                    allow_custom,
                    none_label: "(none)".into(),
                    picker: PickerState::default(),
                };
                f.reset_picker();
                f
            }
            FieldKind::Multi {
                mut options,
                selected,
                allow_custom,
            } => {
                for s in selected.iter().rev() {
                    if !options.contains(s) {
                        options.insert(0, s.clone());
                    }
                }
                FieldState::Multi {
                    options,
                    selected,
                    allow_custom,
                    picker: PickerState::default(),
                }
            }
            FieldKind::Note { value, max_chars } => FieldState::Note {
                area: Box::new(note_area(&value)),
                max_chars,
            },
        }
    }

    pub(crate) fn value(&self) -> FormValue {
        match self {
            FieldState::Text { input, .. } => FormValue::Text(input.value().to_string()),
            FieldState::Choice { selected, .. } => FormValue::One(selected.clone()),
            FieldState::Multi { options, selected, .. } => {
                // In option order, so the result does not depend on click order.
                FormValue::Many(options.iter().filter(|o| selected.contains(o)).cloned().collect())
            }
            FieldState::Note { area, .. } => FormValue::Text(area.lines().join("\n")),
        }
    }

    pub(crate) fn picker(&self) -> Option<&PickerState> {
        match self {
            FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } => Some(picker),
            _ => None,
        }
    }

    /// The rows a picker shows for its current query.
    pub(crate) fn rows(&self) -> Vec<RowValue> {
        match self {
            FieldState::Choice {
                options,
                allow_none,
                allow_custom,
                none_label,
                picker,
                ..
            } => {
                let mut base: Vec<(RowValue, &str)> = Vec::with_capacity(options.len() + 1);
                if *allow_none {
                    base.push((RowValue::Nothing, none_label.as_str()));
                }
                base.extend(
                    options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| (RowValue::Option(i), o.as_str())),
                );
                filtered_rows(base, picker.query.value(), *allow_custom, options)
            }
            FieldState::Multi {
                options,
                allow_custom,
                picker,
                ..
            } => {
                let base = options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| (RowValue::Option(i), o.as_str()))
                    .collect();
                filtered_rows(base, picker.query.value(), *allow_custom, options)
            }
            _ => Vec::new(),
        }
    }

    /// After the query changed: highlight the best match (the custom row
    /// only when nothing matches).
    fn after_query_change(&mut self) {
        let rows = self.rows();
        let first_match = rows.iter().position(|r| !matches!(r, RowValue::Custom(_))).unwrap_or(0);
        if let FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } = self {
            picker.cursor = first_match;
        }
        self.follow_cursor();
    }

    /// A Choice's value is the highlighted row (what you see is what is saved).
    fn follow_cursor(&mut self) {
        let rows = self.rows();
        if let FieldState::Choice {
            options,
            selected,
            picker,
            ..
        } = self
            && let Some(row) = rows.get(picker.cursor)
        {
            *selected = match row {
                RowValue::Nothing => None,
                RowValue::Option(i) => Some(options[*i].clone()),
                RowValue::Custom(s) => Some(s.clone()),
            };
        }
    }

    /// Clears the query and puts the highlight on the current value.
    pub(crate) fn reset_picker(&mut self) {
        if let FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } = self {
            picker.query.clear();
            picker.cursor = 0;
        }
        let rows = self.rows();
        if let FieldState::Choice {
            options,
            selected,
            picker,
            ..
        } = self
        {
            picker.cursor = rows
                .iter()
                .position(|r| match (r, selected.as_ref()) {
                    (RowValue::Nothing, None) => true,
                    (RowValue::Option(i), Some(s)) => options[*i] == *s,
                    _ => false,
                })
                .unwrap_or(0);
        }
    }

    /// Moves a picker's highlight by `delta` rows.
    pub(crate) fn move_cursor(&mut self, delta: isize) {
        let len = self.rows().len();
        if let FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } = self {
            let max = len.saturating_sub(1) as isize;
            picker.cursor = (picker.cursor as isize + delta).clamp(0, max) as usize;
        }
        self.follow_cursor();
    }

    /// Edits a picker's query. True when it changed.
    pub(crate) fn edit_query(&mut self, keys: &Keymap, key: KeyEvent) -> bool {
        let changed = match self {
            FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } => picker.query.handle_key(keys, key),
            _ => false,
        };
        if changed {
            self.after_query_change();
        }
        changed
    }

    pub(crate) fn paste_query(&mut self, text: &str) {
        if let FieldState::Choice { picker, .. } | FieldState::Multi { picker, .. } = self {
            picker.query.insert_str(text);
        }
        self.after_query_change();
    }

    /// Multi: toggles the highlighted row (`force_on` only adds). A custom
    /// row becomes a new option. True when something changed.
    pub(crate) fn toggle(&mut self, force_on: bool) -> bool {
        let rows = self.rows();
        let FieldState::Multi {
            options,
            selected,
            picker,
            ..
        } = self
        else {
            return false;
        };
        let Some(row) = rows.get(picker.cursor) else {
            return false;
        };
        let item = match row {
            RowValue::Option(i) => options[*i].clone(),
            RowValue::Custom(s) => {
                options.push(s.clone());
                s.clone()
            }
            RowValue::Nothing => return false,
        };
        if let Some(pos) = selected.iter().position(|s| *s == item) {
            if force_on {
                return false;
            }
            selected.remove(pos);
        } else {
            selected.push(item.clone());
        }
        if matches!(row, RowValue::Custom(_)) {
            picker.query.clear();
            picker.cursor = options.iter().position(|o| *o == item).unwrap_or(0);
        }
        true
    }

    /// The note editor: every key but the form's own goes to the text area.
    pub(crate) fn note_key(&mut self, keys: &Keymap, key: KeyEvent) -> bool {
        let FieldState::Note { area, .. } = self else {
            return false;
        };
        textarea_key(area, keys, key)
    }

    /// Characters in a note (newlines count; the limit is in characters).
    pub(crate) fn note_count(&self) -> Option<(usize, usize)> {
        match self {
            FieldState::Note { area, max_chars } => {
                let lines = area.lines();
                let n = lines.iter().map(|l| l.chars().count()).sum::<usize>() + lines.len().saturating_sub(1);
                Some((n, *max_chars))
            }
            _ => None,
        }
    }

    /// The inline error for this value, if any.
    pub(crate) fn error(&self, required: bool) -> Option<String> {
        let value = self.value();
        let empty = match &value {
            FormValue::Text(s) => s.trim().is_empty(),
            FormValue::One(o) => o.as_deref().is_none_or(|s| s.trim().is_empty()),
            FormValue::Many(v) => v.is_empty(),
        };
        if required && empty {
            return Some("required".into());
        }
        match self {
            FieldState::Text { input, check } if !empty => check_text(input.value(), *check),
            FieldState::Note { .. } => {
                let (n, max) = self.note_count()?;
                (n > max).then(|| format!("{} characters over the {max} limit", n - max))
            }
            _ => None,
        }
    }
}

/// Type checks of single-line fields, the same rules `validate_field_value`
/// applies before a write.
pub(crate) fn check_text(value: &str, check: TextCheck) -> Option<String> {
    let field_type = match check {
        TextCheck::Any => return None,
        TextCheck::Email => FieldType::Email,
        TextCheck::Number => FieldType::Number,
        TextCheck::Date => {
            let v = value.trim();
            return match NaiveDate::parse_from_str(v, "%Y-%m-%d") {
                Ok(_) if v.len() == 10 => None,
                _ => Some("not a date (YYYY-MM-DD)".into()),
            };
        }
    };
    validate_field_value("", &field_type, &[], &FieldValue::Text(value.to_string()))
        .err()
        .map(|_| match check {
            TextCheck::Email => "not an email address".into(),
            _ => "not a number".into(),
        })
}

fn filtered_rows(base: Vec<(RowValue, &str)>, query: &str, allow_custom: bool, options: &[String]) -> Vec<RowValue> {
    let q = query.trim();
    if q.is_empty() {
        return base.into_iter().map(|(r, _)| r).collect();
    }
    let mut rows = Vec::new();
    if allow_custom && !options.iter().any(|o| o.eq_ignore_ascii_case(q)) {
        rows.push(RowValue::Custom(q.to_string()));
    }
    let order = fuzzy_filter(q, base.iter().map(|(_, l)| *l));
    let mut base: Vec<Option<RowValue>> = base.into_iter().map(|(r, _)| Some(r)).collect();
    rows.extend(order.into_iter().filter_map(|i| base[i].take()));
    rows
}

/// Feeds one key to a text area: a key of `keys`' `box.*` rows, else of
/// its `text.*` rows, else a typed character; anything else is left to the
/// caller. True when the text changed. Shift with a motion selects (for
/// `box.cut` and `box.copy`), as the widget does.
pub fn textarea_key(area: &mut TextArea<'static>, keys: &Keymap, key: KeyEvent) -> bool {
    let action = keys
        .mode_action_for(Mode::TextBox, &key)
        .or_else(|| keys.mode_action_for(Mode::Text, &key));
    let Some(action) = action else {
        return typed_char(&key).is_some_and(|c| {
            area.insert_char(c);
            true
        });
    };
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let motion = match action {
        M::Left => CursorMove::Back,
        M::Right => CursorMove::Forward,
        M::WordLeft => CursorMove::WordBack,
        M::WordRight => CursorMove::WordForward,
        M::Home => CursorMove::Head,
        M::End => CursorMove::End,
        M::Up => CursorMove::Up,
        M::Down => CursorMove::Down,
        M::ParagraphUp => CursorMove::ParagraphBack,
        M::ParagraphDown => CursorMove::ParagraphForward,
        M::PageUp | M::PageDown => {
            select(area, shift);
            let page = if action == M::PageUp {
                Scrolling::PageUp
            } else {
                Scrolling::PageDown
            };
            area.scroll(page);
            return false;
        }
        M::Copy => {
            area.copy();
            return false;
        }
        edit => {
            return match edit {
                M::Newline => {
                    area.insert_newline();
                    true
                }
                M::Indent => area.insert_tab(),
                M::DeleteChar => area.delete_char(),
                M::DeleteForward => area.delete_next_char(),
                M::DeleteWord => area.delete_word(),
                M::DeleteToStart => area.delete_line_by_head(),
                M::DeleteToEnd => area.delete_line_by_end(),
                M::Undo => area.undo(),
                M::Redo => area.redo(),
                M::Cut => area.cut(),
                M::Paste => area.paste(),
                _ => false,
            };
        }
    };
    select(area, shift);
    area.move_cursor(motion);
    false
}

/// A motion with Shift extends the selection (starting one), without it
/// ends the selection.
fn select(area: &mut TextArea<'static>, shift: bool) {
    if !shift {
        area.cancel_selection();
    } else if !area.is_selecting() {
        area.start_selection();
    }
}
