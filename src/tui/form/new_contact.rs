//! The new-contact form (`N`): the fields of POST /contacts, and the body
//! it stands for.

use super::spec::FieldId;
use std::collections::BTreeMap;

use super::contact_forms::{
    NOTE_MAX_CHARS, cf_key, check_email, checked_note, custom_field_kind, custom_value, form_many, form_one, form_text,
    spec, team_labels, team_uuid_of, text,
};
use super::spec::{FieldKind, FieldSpec, FormValue, TextCheck};
use super::state::Form;
use crate::api::{BotAction, FieldMeta, FieldValue, NewContact};

fn custom_field_specs(field_meta: &BTreeMap<String, FieldMeta>) -> Vec<FieldSpec> {
    field_meta
        .iter()
        .map(|(name, m)| {
            spec(
                cf_key(name),
                name,
                custom_field_kind(&m.field_type, &m.options, &FieldValue::default()),
                false,
                None,
            )
        })
        .collect()
}

/// `N`: the fields of POST /contacts. `channels` are (uuid, label), the
/// default (main) channel first; without any (the server offers no channel
/// list) the field is left out and the server picks the main channel.
pub fn new_contact_form(
    sources: &[String],
    known_tags: &[String],
    collaborators: &[String],
    teams: &[(String, String)],
    channels: &[(String, String)],
    field_meta: &BTreeMap<String, FieldMeta>,
) -> Form {
    let default_source = sources.iter().find(|s| *s == "messaging_app").cloned();
    let mut fields = vec![
        spec(
            FieldId::Identifier,
            "Identifier",
            text("", TextCheck::Any),
            true,
            Some("for messaging_app, the phone number"),
        ),
        spec(
            FieldId::Source,
            "Source",
            FieldKind::Choice {
                options: sources.to_vec(),
                selected: default_source,
                allow_none: false,
                allow_custom: true,
            },
            true,
            None,
        ),
        spec(FieldId::Name, "Name", text("", TextCheck::Any), true, None),
        spec(
            FieldId::Tags,
            "Tags",
            FieldKind::Multi {
                options: known_tags.to_vec(),
                selected: Vec::new(),
                allow_custom: true,
            },
            false,
            None,
        ),
        spec(
            FieldId::AssignedUser,
            "Assignee",
            FieldKind::Choice {
                options: collaborators.to_vec(),
                selected: None,
                allow_none: true,
                allow_custom: true,
            },
            false,
            None,
        ),
        spec(
            FieldId::Team,
            "Team",
            FieldKind::Choice {
                options: team_labels(teams),
                selected: None,
                allow_none: true,
                allow_custom: false,
            },
            false,
            None,
        ),
    ];
    if !channels.is_empty() {
        let options = team_labels(channels);
        fields.push(spec(
            FieldId::Channel,
            "Channel",
            FieldKind::Choice {
                selected: options.first().cloned(),
                options,
                allow_none: false,
                allow_custom: false,
            },
            false,
            Some("the channel the conversation starts from"),
        ));
    }
    // Offered always: the TUI cannot tell whether the account has a bot,
    // and the server's error says so if it has none.
    fields.push(spec(
        FieldId::Bot,
        "Bot",
        FieldKind::Choice {
            options: vec![BOT_START.to_string(), BOT_END.to_string()],
            selected: None,
            allow_none: true,
            allow_custom: false,
        },
        false,
        None,
    ));
    fields.extend(custom_field_specs(field_meta));
    fields.push(spec(
        FieldId::Note,
        "Note",
        FieldKind::Note {
            value: String::new(),
            max_chars: NOTE_MAX_CHARS,
        },
        false,
        None,
    ));
    let mut form = Form::new("New contact", fields);
    form.set_none_label(&FieldId::AssignedUser, "(unassigned)");
    form.set_none_label(&FieldId::Team, "(no team)");
    form.set_none_label(&FieldId::Bot, "(default)");
    form
}

const BOT_START: &str = "start";
const BOT_END: &str = "end";

pub fn new_contact_body(
    form: &Form,
    teams: &[(String, String)],
    channels: &[(String, String)],
    field_meta: &BTreeMap<String, FieldMeta>,
) -> Result<NewContact, String> {
    let required = |key: FieldId, label: &str| -> Result<String, String> {
        let v = form_text(form, &key).trim().to_string();
        if v.is_empty() {
            Err(format!("{label}: required"))
        } else {
            Ok(v)
        }
    };
    let mut body = NewContact {
        identifier: required(FieldId::Identifier, "identifier")?,
        source: required(FieldId::Source, "source")?,
        name: required(FieldId::Name, "name")?,
        ..Default::default()
    };
    let tags = form_many(form, &FieldId::Tags);
    body.tags = (!tags.is_empty()).then_some(tags);
    body.assigned_user = form_one(form, &FieldId::AssignedUser)
        .map(|e| check_email("assignee", &e))
        .transpose()?;
    if let Some(label) = form_one(form, &FieldId::Team) {
        body.team_uuid =
            Some(team_uuid_of(teams, &label).ok_or_else(|| format!("team: \"{label}\" is not a known team"))?);
    }
    if let Some(label) = form_one(form, &FieldId::Channel) {
        body.channel_uuid =
            Some(team_uuid_of(channels, &label).ok_or_else(|| format!("channel: \"{label}\" is not a known channel"))?);
    }
    body.bot_status = match form_one(form, &FieldId::Bot).as_deref() {
        Some(BOT_START) => Some(BotAction::Start),
        Some(BOT_END) => Some(BotAction::End),
        _ => None,
    };
    let mut custom = BTreeMap::new();
    for (name, m) in field_meta {
        let Some(v) = form.value(&cf_key(name)) else { continue };
        let empty = match &v {
            FormValue::Text(s) => s.trim().is_empty(),
            FormValue::One(o) => o.is_none(),
            FormValue::Many(items) => items.is_empty(),
        };
        if !empty {
            custom.insert(name.clone(), custom_value(name, &m.field_type, &m.options, v)?);
        }
    }
    body.custom_fields = (!custom.is_empty()).then_some(custom);
    let note = checked_note(form_text(form, &FieldId::Note))?;
    body.note = (!note.is_empty()).then_some(note);
    Ok(body)
}
