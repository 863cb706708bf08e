//! A form's state and its keys: focus, editing, submitting.

use crossterm::event::{KeyEvent, KeyEventKind};

use super::field::FieldState;
use super::spec::{FieldId, FieldSpec, FormOutcome, FormValue};
use crate::tui::keymap::{Keymap, Mode, ModeAction as M};

#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) key: FieldId,
    pub(super) label: String,
    pub(super) required: bool,
    pub(super) help: Option<String>,
    pub(super) state: FieldState,
    /// Edited (or a submit was tried): its inline error may show.
    pub(super) touched: bool,
}

impl Field {
    pub(super) fn shown_error(&self) -> Option<String> {
        if self.touched {
            self.state.error(self.required)
        } else {
            None
        }
    }
}

/// A titled set of fields drawn as a centred overlay.
#[derive(Clone, Debug)]
pub struct Form {
    pub(super) title: String,
    pub(super) fields: Vec<Field>,
    pub(super) focus: usize,
    pub(super) server_error: Option<String>,
    pub(super) busy: bool,
    /// What Enter does, in the key hints: "save", or "apply" for a filter.
    pub(super) submit_verb: &'static str,
}

impl Form {
    pub fn new(title: impl Into<String>, fields: Vec<FieldSpec>) -> Form {
        let fields = fields
            .into_iter()
            .map(|s| Field {
                key: s.key,
                label: s.label,
                required: s.required,
                help: s.help,
                state: FieldState::from_kind(s.kind),
                touched: false,
            })
            .collect();
        Form {
            title: title.into(),
            fields,
            focus: 0,
            server_error: None,
            busy: false,
            submit_verb: "save",
        }
    }

    /// Names what submitting does in the key hints ("apply" for a filter:
    /// nothing is saved on the server).
    pub fn set_submit_verb(&mut self, verb: &'static str) {
        self.submit_verb = verb;
    }

    #[cfg(test)]
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The label of the "nothing" row of a Choice with `allow_none`
    /// (default "(none)"), e.g. "(unassigned)".
    pub fn set_none_label(&mut self, key: &FieldId, label: impl Into<String>) {
        let label = label.into();
        if let Some(f) = self.fields.iter_mut().find(|f| f.key == *key)
            && let FieldState::Choice { none_label, .. } = &mut f.state
        {
            *none_label = label;
            f.state.reset_picker();
        }
    }

    #[cfg(test)]
    /// The key of the focused field.
    pub fn focused_key(&self) -> Option<&FieldId> {
        self.fields.get(self.focus).map(|f| &f.key)
    }

    /// Handles one key, looked up in `keys`: the form's own rows
    /// (`form.*`) first, then the focused field's (see
    /// `keymap::editing`).
    pub fn handle_key(&mut self, keys: &Keymap, key: KeyEvent) -> FormOutcome {
        if key.kind == KeyEventKind::Release {
            return FormOutcome::Pending;
        }
        let action = keys.mode_action_for(Mode::Form, &key);
        match action {
            Some(M::Cancel) => return FormOutcome::Cancelled,
            Some(M::Save) => return self.try_submit(),
            Some(M::NextField) => {
                self.move_focus(1);
                return FormOutcome::Pending;
            }
            Some(M::PrevField) => {
                self.move_focus(-1);
                return FormOutcome::Pending;
            }
            _ => {}
        }
        // A form of one picker (the tags): Enter on a typed tag is the
        // agent's choice made, so it saves too.
        let single = self.fields.len() == 1;
        let Some(field) = self.fields.get_mut(self.focus) else {
            return match action {
                Some(M::Done) => self.try_submit(),
                _ => FormOutcome::Pending,
            };
        };
        match &mut field.state {
            FieldState::Text { input, .. } => match action {
                Some(M::Done) => return self.try_submit(),
                Some(M::Down) => self.move_focus(1),
                Some(M::Up) => self.move_focus(-1),
                _ => {
                    if input.handle_key(keys, key) {
                        field.touched = true;
                    }
                }
            },
            FieldState::Choice { .. } | FieldState::Multi { .. } => {
                let multi = matches!(field.state, FieldState::Multi { .. });
                let has_query = field.state.picker().is_some_and(|p| !p.query.value().trim().is_empty());
                match keys.mode_action_for(Mode::Picker, &key) {
                    Some(M::Choose) if multi && has_query => {
                        field.state.toggle(true);
                        field.state.reset_picker();
                        field.touched = true;
                        if single {
                            return self.try_submit();
                        }
                    }
                    Some(M::Choose) => return self.try_submit(),
                    // While filtering, a space is part of the text ("late payer").
                    Some(M::Toggle) if multi && !has_query => {
                        field.touched |= field.state.toggle(false);
                    }
                    Some(M::Up) => field.state.move_cursor(-1),
                    Some(M::Down) => field.state.move_cursor(1),
                    Some(M::PageUp) => field.state.move_cursor(-5),
                    Some(M::PageDown) => field.state.move_cursor(5),
                    _ => {
                        field.touched |= field.state.edit_query(keys, key);
                    }
                }
            }
            FieldState::Note { .. } => {
                if field.state.note_key(keys, key) {
                    field.touched = true;
                }
            }
        }
        FormOutcome::Pending
    }

    fn move_focus(&mut self, delta: isize) {
        if self.fields.is_empty() {
            return;
        }
        let n = self.fields.len() as isize;
        let next = (self.focus as isize + delta).rem_euclid(n) as usize;
        self.set_focus(next);
    }

    fn set_focus(&mut self, idx: usize) {
        if idx != self.focus
            && let Some(f) = self.fields.get_mut(self.focus)
        {
            f.state.reset_picker();
        }
        self.focus = idx;
    }

    fn try_submit(&mut self) -> FormOutcome {
        if self.busy {
            return FormOutcome::Pending;
        }
        for f in &mut self.fields {
            f.touched = true;
        }
        if let Some(bad) = self.fields.iter().position(|f| f.state.error(f.required).is_some()) {
            self.set_focus(bad);
            return FormOutcome::Pending;
        }
        self.server_error = None;
        FormOutcome::Submitted
    }

    /// Bracketed paste into the focused text field, note or picker filter.
    pub fn handle_paste(&mut self, text: &str) {
        let Some(field) = self.fields.get_mut(self.focus) else {
            return;
        };
        match &mut field.state {
            FieldState::Text { input, .. } => input.insert_str(text),
            FieldState::Note { area, .. } => {
                area.insert_str(crate::tui::text::sanitize(text, true));
            }
            FieldState::Choice { .. } | FieldState::Multi { .. } => field.state.paste_query(text),
        }
        field.touched = true;
    }

    /// A field's current value by `FieldSpec.key`.
    pub fn value(&self, key: &FieldId) -> Option<FormValue> {
        self.fields.iter().find(|f| f.key == *key).map(|f| f.state.value())
    }

    /// Shows a server error at the bottom of the form; keeps everything typed.
    pub fn set_error(&mut self, message: impl Into<String>) {
        self.server_error = Some(message.into());
    }

    #[cfg(test)]
    /// The server error shown, if any.
    pub fn error(&self) -> Option<&str> {
        self.server_error.as_deref()
    }

    /// While the request runs: shows "saving…" and ignores submit.
    pub fn set_busy(&mut self, busy: bool) {
        self.busy = busy;
    }

    #[cfg(test)]
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    #[cfg(test)]
    /// The inline error of a field as shown now.
    pub fn field_error(&self, key: &FieldId) -> Option<String> {
        self.fields.iter().find(|f| f.key == *key).and_then(Field::shown_error)
    }
}
