//! TEMPORARY stand-in for `crate::tui::form` (built on branch `tuiform`):
//! the same public names, the least behaviour that lets the app and its
//! tests run. Deleted when `tuiform` is merged.
#![allow(dead_code)]

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::api::{Contact, ContactFilter, ContactPatch, CustomStatus, FieldMeta, NewContact, split_list};
use crate::tui::theme::Theme;

pub enum FormOutcome {
    Pending,
    Cancelled,
    Submitted,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FormValue {
    Text(String),
    One(Option<String>),
    Many(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct FieldSpec {
    pub key: String,
    pub label: String,
    pub value: String,
}

impl FieldSpec {
    pub fn text(key: &str, value: &str) -> FieldSpec {
        FieldSpec {
            key: key.into(),
            label: key.into(),
            value: value.into(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Form {
    title: String,
    fields: Vec<FieldSpec>,
    focus: usize,
    error: Option<String>,
    busy: bool,
}

impl Form {
    pub fn new(title: impl Into<String>, fields: Vec<FieldSpec>) -> Form {
        Form {
            title: title.into(),
            fields,
            focus: 0,
            error: None,
            busy: false,
        }
    }
    pub fn title(&self) -> &str {
        &self.title
    }
    pub fn handle_key(&mut self, key: KeyEvent) -> FormOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return FormOutcome::Cancelled,
            KeyCode::Char('s') if ctrl => return FormOutcome::Submitted,
            KeyCode::Enter => return FormOutcome::Submitted,
            KeyCode::Tab => self.focus = (self.focus + 1) % self.fields.len().max(1),
            KeyCode::Backspace => {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    f.value.pop();
                }
            }
            KeyCode::Char(c) if !ctrl => {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    f.value.push(c);
                }
            }
            _ => {}
        }
        FormOutcome::Pending
    }
    pub fn handle_paste(&mut self, s: &str) {
        if let Some(f) = self.fields.get_mut(self.focus) {
            f.value.push_str(s);
        }
    }
    pub fn value(&self, key: &str) -> Option<FormValue> {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| FormValue::Text(f.value.clone()))
    }
    pub fn set_error(&mut self, msg: impl Into<String>) {
        self.error = Some(msg.into());
    }
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    pub fn set_busy(&mut self, busy: bool) {
        self.busy = busy;
    }
    pub fn is_busy(&self) -> bool {
        self.busy
    }
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let w = area.width.min(60);
        let h = (self.fields.len() as u16 + 4).min(area.height);
        let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
        frame.render_widget(Clear, r);
        let mut lines: Vec<Line> = self
            .fields
            .iter()
            .map(|f| Line::raw(format!("{}: {}", f.label, f.value)))
            .collect();
        if let Some(e) = &self.error {
            lines.push(Line::styled(e.clone(), theme.error()));
        }
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(self.title.clone())),
            r,
        );
    }
    pub fn cursor_position(&self, _area: Rect) -> Option<Position> {
        None
    }
}

fn text_of(form: &Form, key: &str) -> String {
    match form.value(key) {
        Some(FormValue::Text(s)) => s,
        _ => String::new(),
    }
}

#[derive(Clone, Debug)]
pub struct PickItem {
    pub label: String,
    pub detail: String,
    pub key: String,
}

pub enum PickOutcome {
    Pending,
    Cancelled,
    Chosen(String),
}

#[derive(Clone, Debug)]
pub struct FuzzyPicker {
    title: String,
    items: Vec<PickItem>,
    query: String,
    selected: usize,
}

impl FuzzyPicker {
    pub fn new(title: impl Into<String>, items: Vec<PickItem>) -> FuzzyPicker {
        FuzzyPicker {
            title: title.into(),
            items,
            query: String::new(),
            selected: 0,
        }
    }
    fn matches(&self) -> Vec<usize> {
        fuzzy_filter(&self.query, self.items.iter().map(|i| i.label.as_str()))
    }
    pub fn handle_key(&mut self, key: KeyEvent) -> PickOutcome {
        match key.code {
            KeyCode::Esc => return PickOutcome::Cancelled,
            KeyCode::Enter => {
                return match self.matches().get(self.selected) {
                    Some(&i) => PickOutcome::Chosen(self.items[i].key.clone()),
                    None => PickOutcome::Pending,
                };
            }
            KeyCode::Down => self.selected += 1,
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Backspace => {
                self.query.pop();
                self.selected = 0;
            }
            KeyCode::Char(c) => {
                self.query.push(c);
                self.selected = 0;
            }
            _ => {}
        }
        PickOutcome::Pending
    }
    pub fn query(&self) -> &str {
        &self.query
    }
    pub fn render(&self, frame: &mut Frame, area: Rect, _theme: &Theme) {
        let w = area.width.min(60);
        let h = area.height.min(16);
        let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
        frame.render_widget(Clear, r);
        let mut lines = vec![Line::raw(format!("> {}", self.query))];
        for (n, i) in self.matches().into_iter().enumerate() {
            let mark = if n == self.selected { "▸ " } else { "  " };
            lines.push(Line::raw(format!(
                "{mark}{}  {}",
                self.items[i].label, self.items[i].detail
            )));
        }
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(self.title.clone())),
            r,
        );
    }
}

/// Subsequence match, case-insensitive; shorter haystacks first.
pub fn fuzzy_filter<'a>(query: &str, haystacks: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let q: Vec<char> = query.to_lowercase().chars().filter(|c| !c.is_whitespace()).collect();
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for (i, h) in haystacks.into_iter().enumerate() {
        let mut qi = 0;
        for c in h.to_lowercase().chars() {
            if qi < q.len() && c == q[qi] {
                qi += 1;
            }
        }
        if qi == q.len() {
            hits.push((h.len(), i));
        }
    }
    if !q.is_empty() {
        hits.sort();
    }
    hits.into_iter().map(|(_, i)| i).collect()
}

pub fn edit_contact_form(c: &Contact) -> Form {
    Form::new("Edit contact", vec![FieldSpec::text("name", &c.name)])
}
pub fn edit_contact_patch(c: &Contact, f: &Form) -> Result<ContactPatch, String> {
    let name = text_of(f, "name");
    if name.trim().is_empty() {
        return Err("name: cannot be empty".into());
    }
    Ok(ContactPatch {
        name: (name != c.name).then_some(name),
        ..Default::default()
    })
}
pub fn tags_form(c: &Contact, _known: &[String]) -> Form {
    Form::new("Tags", vec![FieldSpec::text("tags", &c.tags.join(", "))])
}
pub fn tags_patch(f: &Form) -> ContactPatch {
    ContactPatch {
        tags: Some(split_list(&text_of(f, "tags"))),
        ..Default::default()
    }
}
pub fn assign_form(c: &Contact, _collaborators: &[String]) -> Form {
    Form::new(
        "Assign",
        vec![FieldSpec::text("assignee", c.assigned_user.as_deref().unwrap_or(""))],
    )
}
pub fn assign_patch(_c: &Contact, f: &Form) -> Result<ContactPatch, String> {
    let a = text_of(f, "assignee");
    Ok(if a.is_empty() {
        ContactPatch {
            unassign_user: Some(true),
            ..Default::default()
        }
    } else {
        ContactPatch {
            assigned_user: Some(a),
            ..Default::default()
        }
    })
}
pub fn team_form(c: &Contact, _teams: &[(String, String)]) -> Form {
    Form::new("Team", vec![FieldSpec::text("team", c.team_uuid().unwrap_or(""))])
}
pub fn team_patch(f: &Form, _teams: &[(String, String)]) -> Result<ContactPatch, String> {
    Ok(ContactPatch {
        team_uuid: Some(text_of(f, "team")),
        ..Default::default()
    })
}
pub fn note_form(c: &Contact) -> Form {
    Form::new("Note", vec![FieldSpec::text("note", c.note.as_deref().unwrap_or(""))])
}
pub fn note_patch(f: &Form) -> Result<ContactPatch, String> {
    let note = text_of(f, "note");
    if note.chars().count() > 1000 {
        return Err("note: at most 1000 characters".into());
    }
    Ok(ContactPatch {
        note: Some(note),
        ..Default::default()
    })
}
pub fn new_contact_form(
    _sources: &[String],
    _known_tags: &[String],
    _collaborators: &[String],
    _teams: &[(String, String)],
    _field_meta: &BTreeMap<String, FieldMeta>,
) -> Form {
    Form::new(
        "New contact",
        vec![
            FieldSpec::text("identifier", ""),
            FieldSpec::text("source", "messaging_app"),
            FieldSpec::text("name", ""),
        ],
    )
}
pub fn new_contact_body(
    f: &Form,
    _teams: &[(String, String)],
    _field_meta: &BTreeMap<String, FieldMeta>,
) -> Result<NewContact, String> {
    let identifier = text_of(f, "identifier");
    if identifier.is_empty() {
        return Err("identifier: required".into());
    }
    Ok(NewContact {
        identifier,
        source: text_of(f, "source"),
        name: text_of(f, "name"),
        ..Default::default()
    })
}
pub fn filter_form(filter: &ContactFilter, _sources: &[String], _tags: &[String], _teams: &[(String, String)]) -> Form {
    Form::new(
        "Filter contacts",
        vec![
            FieldSpec::text("source", filter.source.as_deref().unwrap_or("")),
            FieldSpec::text("tags", &filter.tags.join(", ")),
            FieldSpec::text("team", filter.team_uuid.as_deref().unwrap_or("")),
        ],
    )
}
pub fn filter_value(f: &Form, _teams: &[(String, String)], include_field_types: bool) -> ContactFilter {
    let opt = |s: String| if s.is_empty() { None } else { Some(s) };
    ContactFilter {
        source: opt(text_of(f, "source")),
        tags: split_list(&text_of(f, "tags")),
        team_uuid: opt(text_of(f, "team")),
        include_field_types,
    }
}
pub fn custom_status_picker(statuses: &[CustomStatus], _current: Option<&str>) -> FuzzyPicker {
    let mut items = vec![PickItem {
        label: "(none)".into(),
        detail: "clear".into(),
        key: String::new(),
    }];
    items.extend(statuses.iter().map(|s| PickItem {
        label: format!("{} {}", s.emoji, s.name),
        detail: String::new(),
        key: s.id.clone(),
    }));
    FuzzyPicker::new("Custom status", items)
}
