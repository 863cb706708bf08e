//! The contact forms (edit, tags, assign, team, note, filter,
//! custom status) and the pure conversions from a submitted form to the
//! request it stands for.

use std::collections::BTreeMap;

use super::fuzzy::{FuzzyPicker, PickItem};
use super::spec::{FieldId, FieldKind, FieldSpec, FormValue, TextCheck};
use super::state::Form;
use crate::api::model::{Contact, CustomStatus, FieldType, FieldValue, split_list, validate_field_value};
use crate::api::{ContactFilter, ContactPatch};

/// The service's note limit, in characters.
pub const NOTE_MAX_CHARS: usize = 1000;
const NOTHING_TO_SAVE: &str = "nothing to save";

pub(super) fn spec(key: FieldId, label: &str, kind: FieldKind, required: bool, help: Option<&str>) -> FieldSpec {
    FieldSpec {
        key,
        label: label.into(),
        kind,
        required,
        help: help.map(str::to_string),
    }
}

pub(super) fn text(value: &str, check: TextCheck) -> FieldKind {
    FieldKind::Text {
        value: value.into(),
        check,
    }
}

pub(super) fn cf_key(name: &str) -> FieldId {
    FieldId::Custom(name.to_string())
}

pub(super) fn form_text(form: &Form, key: &FieldId) -> String {
    match form.value(key) {
        Some(FormValue::Text(s)) => s,
        Some(FormValue::One(Some(s))) => s,
        _ => String::new(),
    }
}

pub(super) fn form_one(form: &Form, key: &FieldId) -> Option<String> {
    match form.value(key) {
        Some(FormValue::One(o)) => o.filter(|s| !s.trim().is_empty()).map(|s| s.trim().to_string()),
        Some(FormValue::Text(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

pub(super) fn form_many(form: &Form, key: &FieldId) -> Vec<String> {
    match form.value(key) {
        Some(FormValue::Many(v)) => v,
        Some(FormValue::Text(s)) => split_list(&s),
        _ => Vec::new(),
    }
}

/// Team labels for a picker: the name, with a short uuid when names repeat.
pub(super) fn team_labels(teams: &[(String, String)]) -> Vec<String> {
    teams
        .iter()
        .map(|(uuid, name)| {
            if teams.iter().filter(|(_, n)| n == name).count() > 1 {
                format!("{name} · {}", uuid.chars().take(8).collect::<String>())
            } else {
                name.clone()
            }
        })
        .collect()
}

pub(super) fn team_label_of(teams: &[(String, String)], uuid: &str) -> Option<String> {
    teams
        .iter()
        .position(|(u, _)| u == uuid)
        .map(|i| team_labels(teams)[i].clone())
}

pub(super) fn team_uuid_of(teams: &[(String, String)], label: &str) -> Option<String> {
    team_labels(teams)
        .iter()
        .position(|l| l == label)
        .map(|i| teams[i].0.clone())
}

/// The form kind of a custom field, with `value` as its initial value.
pub(super) fn custom_field_kind(field_type: &FieldType, options: &[String], value: &FieldValue) -> FieldKind {
    let as_text = || value.display();
    match field_type {
        FieldType::Email => text(&as_text(), TextCheck::Email),
        FieldType::Number => text(&as_text(), TextCheck::Number),
        FieldType::Date => text(&as_text(), TextCheck::Date),
        FieldType::Dropdown => FieldKind::Choice {
            options: options.to_vec(),
            selected: Some(as_text()).filter(|s| !s.is_empty()),
            allow_none: true,
            allow_custom: false,
        },
        FieldType::Checkbox => FieldKind::Multi {
            options: options.to_vec(),
            selected: match value {
                FieldValue::List(v) => v.clone(),
                FieldValue::Text(s) => split_list(s),
            },
            allow_custom: false,
        },
        FieldType::Text | FieldType::Other(_) => text(&as_text(), TextCheck::Any),
    }
}

/// A custom field's type and options: from the metadata, else plain text.
fn custom_fields_of(contact: &Contact) -> Vec<(String, FieldType, Vec<String>, FieldValue)> {
    let meta = contact.custom_fields_metadata.clone().unwrap_or_default();
    let mut names: Vec<&String> = meta.keys().chain(contact.custom_fields.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let value = contact.custom_fields.get(name).cloned();
            match meta.get(name) {
                Some(m) => (
                    name.clone(),
                    m.field_type.clone(),
                    m.options.clone(),
                    value.unwrap_or(m.value.clone()),
                ),
                None => (name.clone(), FieldType::Text, Vec::new(), value.unwrap_or_default()),
            }
        })
        .collect()
}

/// `e`: the name and every custom field, each by its type.
pub fn edit_contact_form(contact: &Contact) -> Form {
    let mut fields = vec![spec(
        FieldId::Name,
        "Name",
        text(&contact.name, TextCheck::Any),
        true,
        None,
    )];
    for (name, ty, options, value) in custom_fields_of(contact) {
        fields.push(spec(
            cf_key(&name),
            &name,
            custom_field_kind(&ty, &options, &value),
            false,
            None,
        ));
    }
    Form::new(format!("Edit {}", contact.name), fields)
}

/// The value a custom field had when its form was built.
fn initial_value(ty: &FieldType, options: &[String], value: &FieldValue) -> Option<FormValue> {
    Form::new(
        "",
        vec![spec(
            FieldId::Value,
            "",
            custom_field_kind(ty, options, value),
            false,
            None,
        )],
    )
    .value(&FieldId::Value)
}

fn normalised(v: Option<FormValue>) -> Option<FormValue> {
    match v {
        Some(FormValue::Many(mut items)) => {
            items.sort();
            Some(FormValue::Many(items))
        }
        other => other,
    }
}

/// Validates one custom field's form value for a write. Empty values clear.
pub(super) fn custom_value(
    name: &str,
    ty: &FieldType,
    options: &[String],
    v: FormValue,
) -> Result<serde_json::Value, String> {
    let value = match v {
        FormValue::Text(s) => FieldValue::Text(s),
        FormValue::One(o) => FieldValue::Text(o.unwrap_or_default()),
        FormValue::Many(items) => FieldValue::List(items),
    };
    if value.is_empty() || matches!(&value, FieldValue::Text(s) if s.trim().is_empty()) {
        return Ok(match value {
            FieldValue::List(_) => serde_json::Value::Array(Vec::new()),
            FieldValue::Text(_) => serde_json::Value::String(String::new()),
        });
    }
    validate_field_value(name, ty, options, &value)
}

/// Only the changed fields; custom values checked by type. Err names the
/// field, or says there is nothing to save.
pub fn edit_contact_patch(contact: &Contact, form: &Form) -> Result<ContactPatch, String> {
    let mut patch = ContactPatch::default();
    let name = form_text(form, &FieldId::Name);
    if name != contact.name {
        let trimmed = name.trim();
        if trimmed.is_empty() {
            return Err("name: required".into());
        }
        patch.name = Some(trimmed.to_string());
    }
    let mut custom = BTreeMap::new();
    for (field, ty, options, value) in custom_fields_of(contact) {
        let now = form.value(&cf_key(&field));
        if normalised(now.clone()) == normalised(initial_value(&ty, &options, &value)) {
            continue;
        }
        if let Some(now) = now {
            custom.insert(field.clone(), custom_value(&field, &ty, &options, now)?);
        }
    }
    if !custom.is_empty() {
        patch.custom_fields = Some(custom);
    }
    if patch.is_empty() {
        Err(NOTHING_TO_SAVE.into())
    } else {
        Ok(patch)
    }
}

/// `t`: the contact's tags, picked from those known or typed.
pub fn tags_form(contact: &Contact, known_tags: &[String]) -> Form {
    let kind = FieldKind::Multi {
        options: known_tags.to_vec(),
        selected: contact.tags.clone(),
        allow_custom: true,
    };
    let help = "the server accepts only tags that exist in the account";
    Form::new(
        format!("Tags of {}", contact.name),
        vec![spec(FieldId::Tags, "Tags", kind, false, Some(help))],
    )
}

/// The whole tag list (PATCH replaces it).
pub fn tags_patch(form: &Form) -> ContactPatch {
    ContactPatch {
        tags: Some(form_many(form, &FieldId::Tags)),
        ..Default::default()
    }
}

/// `a`: a collaborator (`Name <email>` when its name is known), "(unassigned)",
/// or a typed email.
pub fn assign_form(contact: &Contact, collaborators: &[String]) -> Form {
    let selected = contact.assigned_user.as_ref().map(|a| {
        collaborators
            .iter()
            .find(|c| email_of(c).eq_ignore_ascii_case(a))
            .cloned()
            .unwrap_or_else(|| a.clone())
    });
    let kind = FieldKind::Choice {
        options: collaborators.to_vec(),
        selected,
        allow_none: true,
        allow_custom: true,
    };
    let help = "type an email to assign someone not listed";
    let mut form = Form::new(
        format!("Assign {}", contact.name),
        vec![spec(FieldId::AssignedUser, "Assignee", kind, false, Some(help))],
    );
    form.set_none_label(&FieldId::AssignedUser, "(unassigned)");
    form
}

pub(super) fn check_email(label: &str, email: &str) -> Result<String, String> {
    validate_field_value(label, &FieldType::Email, &[], &FieldValue::Text(email.to_string())).map(|_| email.to_string())
}

/// The email of an assignee as the picker shows it: `Dana Silva
/// <dana@…>` (with what follows it: `· ● available · 3 open`), or the
/// email alone.
pub fn email_of(choice: &str) -> &str {
    // What the picker adds after the person: ` · ● available · 3 open`.
    let choice = choice.split(" · ").next().unwrap_or(choice).trim();
    match choice.rsplit_once('<').and_then(|(_, rest)| rest.split_once('>')) {
        Some((email, _)) => email.trim(),
        None => choice,
    }
}

/// None unassigns; an email assigns (by email, whatever the picker showed).
pub fn assign_patch(contact: &Contact, form: &Form) -> Result<ContactPatch, String> {
    let _ = contact;
    Ok(match form_one(form, &FieldId::AssignedUser) {
        None => ContactPatch {
            unassign_user: Some(true),
            ..Default::default()
        },
        Some(choice) => ContactPatch {
            assigned_user: Some(check_email("assignee", email_of(&choice))?),
            ..Default::default()
        },
    })
}

/// `T`: a team by name.
pub fn team_form(contact: &Contact, teams: &[(String, String)]) -> Form {
    let selected = match contact.team_uuid() {
        Some(uuid) => team_label_of(teams, uuid).or_else(|| contact.team.as_ref().and_then(|t| t.name.clone())),
        None => None,
    };
    let kind = FieldKind::Choice {
        options: team_labels(teams),
        selected,
        allow_none: false,
        allow_custom: false,
    };
    Form::new(
        format!("Team of {}", contact.name),
        vec![spec(FieldId::Team, "Team", kind, true, None)],
    )
}

pub fn team_patch(form: &Form, teams: &[(String, String)]) -> Result<ContactPatch, String> {
    let label = form_one(form, &FieldId::Team).ok_or("team: choose a team")?;
    let uuid = team_uuid_of(teams, &label).ok_or_else(|| format!("team: \"{label}\" is not a known team"))?;
    Ok(ContactPatch {
        team_uuid: Some(uuid),
        ..Default::default()
    })
}

/// `n`: the note in a text area, pre-filled.
pub fn note_form(contact: &Contact) -> Form {
    let kind = FieldKind::Note {
        value: contact.note.clone().unwrap_or_default(),
        max_chars: NOTE_MAX_CHARS,
    };
    let help = "an empty note clears it";
    Form::new(
        format!("Note on {}", contact.name),
        vec![spec(FieldId::Note, "Note", kind, false, Some(help))],
    )
}

pub(super) fn checked_note(note: String) -> Result<String, String> {
    let n = note.chars().count();
    if n > NOTE_MAX_CHARS {
        return Err(format!("note: {n} characters, the limit is {NOTE_MAX_CHARS}"));
    }
    Ok(if note.trim().is_empty() { String::new() } else { note })
}

/// Empty clears (`Some("")`); over the limit is an error.
pub fn note_patch(form: &Form) -> Result<ContactPatch, String> {
    Ok(ContactPatch {
        note: Some(checked_note(form_text(form, &FieldId::Note))?),
        ..Default::default()
    })
}

/// `f`: source, tags and team filters.
pub fn filter_form(
    current: &ContactFilter,
    sources: &[String],
    known_tags: &[String],
    teams: &[(String, String)],
) -> Form {
    let team = current
        .team_uuid
        .as_deref()
        .map(|u| team_label_of(teams, u).unwrap_or_else(|| u.to_string()));
    let fields = vec![
        spec(
            FieldId::Source,
            "Source",
            FieldKind::Choice {
                options: sources.to_vec(),
                selected: current.source.clone(),
                allow_none: true,
                allow_custom: true,
            },
            false,
            None,
        ),
        spec(
            FieldId::Tags,
            "Tags",
            FieldKind::Multi {
                options: known_tags.to_vec(),
                selected: current.tags.clone(),
                allow_custom: true,
            },
            false,
            Some("contacts with any of these tags"),
        ),
        spec(
            FieldId::Team,
            "Team",
            FieldKind::Choice {
                options: team_labels(teams),
                selected: team,
                allow_none: true,
                allow_custom: false,
            },
            false,
            None,
        ),
    ];
    let mut form = Form::new("Filter contacts", fields);
    form.set_none_label(&FieldId::Source, "(any source)");
    form.set_none_label(&FieldId::Team, "(any team)");
    form.set_submit_verb("apply");
    form
}

pub fn filter_value(form: &Form, teams: &[(String, String)], include_field_types: bool) -> ContactFilter {
    ContactFilter {
        source: form_one(form, &FieldId::Source),
        tags: form_many(form, &FieldId::Tags),
        // A team that is no longer listed (its uuid was shown) is kept as is.
        team_uuid: form_one(form, &FieldId::Team).map(|l| team_uuid_of(teams, &l).unwrap_or(l)),
        include_field_types,
    }
}

/// `s`: "(no custom status)" (key "") first, then each status by id.
pub fn custom_status_picker(statuses: &[CustomStatus], current: Option<&str>) -> FuzzyPicker {
    let mut items = vec![PickItem {
        label: "(no custom status)".into(),
        detail: String::new(),
        key: String::new(),
    }];
    items.extend(statuses.iter().map(|s| PickItem {
        label: format!("{} {}", s.emoji, s.name).trim().to_string(),
        detail: if current == Some(s.id.as_str()) {
            "current".into()
        } else {
            String::new()
        },
        key: s.id.clone(),
    }));
    let mut picker = FuzzyPicker::new("Custom status", items);
    picker.highlight(current.unwrap_or(""));
    picker
}
