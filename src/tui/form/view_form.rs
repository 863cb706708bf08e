//! `f`: the current view's filter as a form (every rule a view can have),
//! and a name to save it under as a view of the config file.

use std::time::Duration;

use super::contact_forms::{form_many, form_one, form_text, spec, team_label_of, team_labels, team_uuid_of, text};
use super::spec::{FieldId, FieldKind, TextCheck};
use super::state::Form;
use crate::triage::{Assignee, State, View, ViewFilter, format_duration, parse_duration};

fn choice(options: Vec<String>, selected: Option<String>) -> FieldKind {
    FieldKind::Choice {
        options,
        selected,
        allow_none: true,
        allow_custom: true,
    }
}

fn multi(options: &[String], selected: &[String]) -> FieldKind {
    FieldKind::Multi {
        options: options.to_vec(),
        selected: selected.to_vec(),
        allow_custom: true,
    }
}

/// The waiting rule as the form writes it: empty, `yes`, or a duration.
fn waiting_text(w: Option<Duration>) -> String {
    match w {
        None => String::new(),
        Some(d) if d.is_zero() => "yes".into(),
        Some(d) => format_duration(d),
    }
}

/// The form for `view`'s filter; `known` lists for the pickers.
pub fn view_filter_form(
    view: &View,
    sources: &[String],
    tags: &[String],
    collaborators: &[String],
    teams: &[(String, String)],
) -> Form {
    let f = &view.filter;
    let mut people = vec!["me".to_string(), "nobody".to_string()];
    people.extend(collaborators.iter().cloned());
    let team = f
        .team
        .as_deref()
        .map(|u| team_label_of(teams, u).unwrap_or_else(|| u.to_string()));
    let rules = f
        .fields
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join("; ");
    let fields = vec![
        spec(
            FieldId::ViewState,
            "State",
            FieldKind::Choice {
                options: vec!["open".into(), "closed".into(), "any".into()],
                selected: Some(f.state.as_str().into()),
                allow_none: false,
                allow_custom: false,
            },
            true,
            None,
        ),
        spec(
            FieldId::AssignedUser,
            "Assignee",
            choice(people, f.assignee.as_ref().map(|a| a.as_text().to_string())),
            false,
            Some("me, nobody, or a collaborator's email"),
        ),
        spec(
            FieldId::Waiting,
            "Waiting",
            text(&waiting_text(f.waiting), TextCheck::Any),
            false,
            Some("the customer wrote last: yes, or longer than 2h"),
        ),
        spec(
            FieldId::Source,
            "Source",
            choice(sources.to_vec(), f.source.clone()),
            false,
            None,
        ),
        spec(
            FieldId::Tags,
            "All tags",
            multi(tags, &f.tags_all),
            false,
            Some("contacts with every one of these"),
        ),
        spec(
            FieldId::TagsAny,
            "Any tag",
            multi(tags, &f.tags_any),
            false,
            Some("contacts with at least one of these"),
        ),
        spec(FieldId::Team, "Team", choice(team_labels(teams), team), false, None),
        spec(
            FieldId::FieldRule,
            "Fields",
            text(&rules, TextCheck::Any),
            false,
            Some("custom field = value; another = value"),
        ),
        spec(
            FieldId::Text,
            "Text",
            text(f.text.as_deref().unwrap_or(""), TextCheck::Any),
            false,
            Some("in the name, phone, tags or note"),
        ),
        spec(
            FieldId::OlderThan,
            "Idle for",
            text(&f.older_than.map(format_duration).unwrap_or_default(), TextCheck::Any),
            false,
            Some("last activity older than, e.g. 7d"),
        ),
        spec(
            FieldId::ViewName,
            "Save as",
            text("", TextCheck::Any),
            false,
            Some("a name saves it as a view in the config file; empty: this session only"),
        ),
    ];
    Form::new(format!("Filter {}", crate::tui::widgets::clean(&view.name)), fields)
}

/// The filter the form describes, and the name to save it under (if any),
/// or what is wrong with it, naming the field.
pub fn view_filter_value(form: &Form, teams: &[(String, String)]) -> Result<(ViewFilter, Option<String>), String> {
    let state = form_one(form, &FieldId::ViewState)
        .and_then(|s| State::parse(&s))
        .unwrap_or_default();
    let waiting = match form_text(form, &FieldId::Waiting).trim() {
        "" | "no" => None,
        "yes" | "y" | "any" => Some(Duration::ZERO),
        d => Some(parse_duration(d).map_err(|e| format!("Waiting: {e}"))?),
    };
    let older_than = match form_text(form, &FieldId::OlderThan).trim() {
        "" => None,
        d => Some(parse_duration(d).map_err(|e| format!("Idle for: {e}"))?),
    };
    let mut fields = Vec::new();
    for rule in form_text(form, &FieldId::FieldRule).split(';') {
        if rule.trim().is_empty() {
            continue;
        }
        let Some((k, v)) = rule.split_once('=') else {
            return Err(format!(
                "Fields: write each rule as name = value, not {:?}",
                rule.trim()
            ));
        };
        if k.trim().is_empty() {
            return Err("Fields: a rule needs a field name before =".into());
        }
        fields.push((k.trim().to_string(), v.trim().to_string()));
    }
    let filter = ViewFilter {
        state,
        assignee: form_one(form, &FieldId::AssignedUser).map(|a| Assignee::parse(&a)),
        waiting,
        source: form_one(form, &FieldId::Source),
        tags_all: form_many(form, &FieldId::Tags),
        tags_any: form_many(form, &FieldId::TagsAny),
        team: form_one(form, &FieldId::Team).map(|l| team_uuid_of(teams, &l).unwrap_or(l)),
        fields,
        text: form_one(form, &FieldId::Text),
        older_than,
        badge: None,
        breach_of: Vec::new(),
    };
    Ok((filter, form_one(form, &FieldId::ViewName)))
}
