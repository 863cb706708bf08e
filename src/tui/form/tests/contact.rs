//! The contact forms yield exactly the request they stand for.

use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use std::collections::BTreeMap;

use crossterm::event::KeyCode;
use serde_json::json;

use super::keys::{ctrl, k, typ};
use crate::api::{Contact, ContactFilter, ContactPatch, ContactTeam, CustomStatus, FieldMeta, FieldType, FieldValue};
use crate::tui::form::*;

fn meta(ty: FieldType, options: &[&str], value: FieldValue) -> FieldMeta {
    FieldMeta {
        value,
        field_type: ty,
        options: options.iter().map(|s| s.to_string()).collect(),
    }
}

fn s(v: &str) -> String {
    v.to_string()
}

pub(super) fn six_field_contact() -> Contact {
    let mut m = BTreeMap::new();
    m.insert(s("city"), meta(FieldType::Text, &[], FieldValue::Text(s("Lisboa"))));
    m.insert(
        s("email"),
        meta(FieldType::Email, &[], FieldValue::Text(s("ana@example.com"))),
    );
    m.insert(s("orders"), meta(FieldType::Number, &[], FieldValue::Text(s("3"))));
    m.insert(
        s("birthday"),
        meta(FieldType::Date, &[], FieldValue::Text(s("1990-05-01"))),
    );
    m.insert(
        s("plan"),
        meta(FieldType::Dropdown, &["basic", "pro"], FieldValue::Text(s("basic"))),
    );
    m.insert(
        s("channels"),
        meta(
            FieldType::Checkbox,
            &["sms", "email", "call"],
            FieldValue::List(vec![s("sms")]),
        ),
    );
    let custom_fields = m.iter().map(|(k, v)| (k.clone(), v.value.clone())).collect();
    Contact {
        uuid: s("c1"),
        name: s("Ana"),
        source: s("messaging_app"),
        tags: vec![s("vip")],
        assigned_user: Some(s("bo@example.com")),
        custom_fields,
        custom_fields_metadata: Some(m),
        team: Some(ContactTeam {
            uuid: Some(s("t1")),
            name: Some(s("Sales")),
        }),
        note: Some(s("old note")),
        ..Default::default()
    }
}

fn teams() -> Vec<(String, String)> {
    vec![(s("t1"), s("Sales")), (s("t2"), s("Support"))]
}

fn channels() -> Vec<(String, String)> {
    vec![
        (s("ch-main"), s("Main line (messaging_app, main)")),
        (s("ch-2"), s("Sales line (messaging_app)")),
    ]
}

fn focus(form: &mut Form, key: FieldId) {
    for _ in 0..20 {
        if form.focused_key() == Some(&key) {
            return;
        }
        form.handle_key(&KEYS, k(KeyCode::Tab));
    }
    panic!("no field {key:?}");
}

#[test]
fn edit_form_has_one_field_per_custom_field_by_type() {
    let f = edit_contact_form(&six_field_contact());
    assert_eq!(f.value(&FieldId::Name), Some(FormValue::Text(s("Ana"))));
    assert_eq!(
        f.value(&FieldId::Custom("plan".into())),
        Some(FormValue::One(Some(s("basic"))))
    );
    assert_eq!(
        f.value(&FieldId::Custom("channels".into())),
        Some(FormValue::Many(vec![s("sms")]))
    );
    assert_eq!(
        f.value(&FieldId::Custom("orders".into())),
        Some(FormValue::Text(s("3")))
    );
}

#[test]
fn unchanged_edit_is_nothing_to_save() {
    let c = six_field_contact();
    assert_eq!(
        edit_contact_patch(&c, &edit_contact_form(&c)),
        Err(s("nothing to save"))
    );
}

#[test]
fn edit_sends_only_the_changed_field() {
    let c = six_field_contact();
    let mut f = edit_contact_form(&c);
    focus(&mut f, FieldId::Custom("orders".into()));
    typ(&mut f, "0");
    let patch = edit_contact_patch(&c, &f).unwrap();
    assert_eq!(
        patch,
        ContactPatch {
            custom_fields: Some([(s("orders"), json!("30"))].into()),
            ..Default::default()
        }
    );
}

#[test]
fn checkbox_becomes_a_json_array_and_name_is_trimmed() {
    let c = six_field_contact();
    let mut f = edit_contact_form(&c);
    typ(&mut f, " ");
    focus(&mut f, FieldId::Custom("channels".into()));
    typ(&mut f, "call");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    let patch = edit_contact_patch(&c, &f).unwrap();
    assert_eq!(patch.name, Some(s("Ana")));
    assert_eq!(
        patch.custom_fields,
        Some([(s("channels"), json!(["sms", "call"]))].into())
    );
    let body = serde_json::to_value(&patch).unwrap();
    assert_eq!(
        body,
        json!({"name": "Ana", "custom_fields": {"channels": ["sms", "call"]}})
    );
}

#[test]
fn edit_dropdown_to_none_clears_and_bad_values_name_the_field() {
    let c = six_field_contact();
    let mut f = edit_contact_form(&c);
    focus(&mut f, FieldId::Custom("plan".into()));
    f.handle_key(&KEYS, k(KeyCode::Up));
    f.handle_key(&KEYS, k(KeyCode::Up));
    let patch = edit_contact_patch(&c, &f).unwrap();
    assert_eq!(patch.custom_fields, Some([(s("plan"), json!(""))].into()));

    let mut f = edit_contact_form(&c);
    focus(&mut f, FieldId::Custom("email".into()));
    typ(&mut f, " x");
    let err = edit_contact_patch(&c, &f).unwrap_err();
    assert!(err.starts_with("email:"), "{err}");
}

#[test]
fn fields_without_metadata_are_plain_text() {
    let mut c = six_field_contact();
    c.custom_fields_metadata = None;
    let mut f = edit_contact_form(&c);
    focus(&mut f, FieldId::Custom("channels".into()));
    assert_eq!(
        f.value(&FieldId::Custom("channels".into())),
        Some(FormValue::Text(s("sms")))
    );
    typ(&mut f, "!");
    let patch = edit_contact_patch(&c, &f).unwrap();
    assert_eq!(patch.custom_fields, Some([(s("channels"), json!("sms!"))].into()));
}

#[test]
fn tags_patch_sends_the_whole_list() {
    let c = six_field_contact();
    let mut f = tags_form(&c, &[s("new"), s("vip")]);
    // Space toggles the highlighted one; Enter on a typed tag adds it and
    // saves: one Enter.
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    typ(&mut f, "late payer");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
    assert_eq!(
        tags_patch(&f),
        ContactPatch {
            tags: Some(vec![s("new"), s("vip"), s("late payer")]),
            ..Default::default()
        }
    );
}

#[test]
fn removing_every_tag_sends_an_empty_list() {
    let c = six_field_contact();
    let mut f = tags_form(&c, &[]);
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    assert_eq!(tags_patch(&f).tags, Some(vec![]));
}

#[test]
fn unassign_sends_only_unassign_user() {
    let c = six_field_contact();
    let mut f = assign_form(&c, &[s("bo@example.com"), s("cy@example.com")]);
    f.handle_key(&KEYS, k(KeyCode::Up));
    let patch = assign_patch(&c, &f).unwrap();
    assert_eq!(
        patch,
        ContactPatch {
            unassign_user: Some(true),
            ..Default::default()
        }
    );
    assert_eq!(serde_json::to_value(&patch).unwrap(), json!({"unassign_user": true}));
}

#[test]
fn assign_picks_or_takes_a_typed_email() {
    let c = six_field_contact();
    let mut f = assign_form(&c, &[s("bo@example.com"), s("cy@example.com")]);
    f.handle_key(&KEYS, k(KeyCode::Down));
    assert_eq!(assign_patch(&c, &f).unwrap().assigned_user, Some(s("cy@example.com")));
    let mut f = assign_form(&c, &[]);
    typ(&mut f, "new@example.org");
    let patch = assign_patch(&c, &f).unwrap();
    assert_eq!(
        patch,
        ContactPatch {
            assigned_user: Some(s("new@example.org")),
            ..Default::default()
        }
    );
    let mut f = assign_form(&c, &[]);
    typ(&mut f, "not-an-email");
    assert!(assign_patch(&c, &f).is_err());
}

#[test]
fn team_is_chosen_by_name_and_sent_by_uuid() {
    let c = six_field_contact();
    let mut f = team_form(&c, &teams());
    assert_eq!(f.value(&FieldId::Team), Some(FormValue::One(Some(s("Sales")))));
    typ(&mut f, "supp");
    assert_eq!(
        team_patch(&f, &teams()).unwrap(),
        ContactPatch {
            team_uuid: Some(s("t2")),
            ..Default::default()
        }
    );
}

#[test]
fn teams_with_the_same_name_stay_distinct() {
    let dup = vec![(s("aaaaaaaa11"), s("Ops")), (s("bbbbbbbb22"), s("Ops"))];
    let c = Contact::default();
    let mut f = team_form(&c, &dup);
    f.handle_key(&KEYS, k(KeyCode::Down));
    f.handle_key(&KEYS, k(KeyCode::Down));
    assert_eq!(team_patch(&f, &dup).unwrap().team_uuid, Some(s("bbbbbbbb22")));
}

#[test]
fn note_is_prefilled_empty_clears_and_over_limit_is_refused() {
    let c = six_field_contact();
    let mut f = note_form(&c);
    assert_eq!(f.value(&FieldId::Note), Some(FormValue::Text(s("old note"))));
    for _ in 0..8 {
        f.handle_key(&KEYS, k(KeyCode::Backspace));
    }
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Submitted);
    assert_eq!(
        note_patch(&f).unwrap(),
        ContactPatch {
            note: Some(s("")),
            ..Default::default()
        }
    );
    f.handle_paste(&"é".repeat(1001));
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Pending);
    assert!(note_patch(&f).is_err());
    f.handle_key(&KEYS, k(KeyCode::Backspace));
    assert_eq!(note_patch(&f).unwrap().note.map(|n| n.chars().count()), Some(1000));
}

fn new_form_meta() -> BTreeMap<String, FieldMeta> {
    let mut m = BTreeMap::new();
    m.insert(s("orders"), meta(FieldType::Number, &[], FieldValue::default()));
    m.insert(
        s("plan"),
        meta(FieldType::Dropdown, &["basic", "pro"], FieldValue::default()),
    );
    m
}

#[test]
fn new_contact_body_has_the_required_fields_and_only_given_optionals() {
    let meta = new_form_meta();
    let mut f = new_contact_form(
        &[s("messaging_app"), s("sms")],
        &[s("vip")],
        &[s("bo@example.com")],
        &teams(),
        &[],
        &meta,
    );
    assert_eq!(f.value(&FieldId::Channel), None, "no channel list: no Channel field");
    assert_eq!(
        f.value(&FieldId::Bot),
        Some(FormValue::One(None)),
        "Bot starts at (default)"
    );
    assert_eq!(
        f.value(&FieldId::Source),
        Some(FormValue::One(Some(s("messaging_app"))))
    );
    assert_eq!(
        f.handle_key(&KEYS, k(KeyCode::Enter)),
        FormOutcome::Pending,
        "identifier and name are required"
    );
    assert_eq!(f.focused_key(), Some(&FieldId::Identifier));
    typ(&mut f, "+351900000000");
    focus(&mut f, FieldId::Name);
    typ(&mut f, "Rui");
    assert_eq!(f.handle_key(&KEYS, k(KeyCode::Enter)), FormOutcome::Submitted);
    let body = new_contact_body(&f, &teams(), &[], &meta).unwrap();
    assert_eq!(
        serde_json::to_value(&body).unwrap(),
        json!({"identifier": "+351900000000", "source": "messaging_app", "name": "Rui"})
    );
}

#[test]
fn new_contact_body_with_every_optional_field() {
    let meta = new_form_meta();
    let mut f = new_contact_form(
        &[s("messaging_app")],
        &[s("vip")],
        &[s("bo@example.com")],
        &teams(),
        &channels(),
        &meta,
    );
    typ(&mut f, "123");
    focus(&mut f, FieldId::Name);
    typ(&mut f, "Rui");
    focus(&mut f, FieldId::Tags);
    f.handle_key(&KEYS, k(KeyCode::Char(' ')));
    focus(&mut f, FieldId::AssignedUser);
    f.handle_key(&KEYS, k(KeyCode::Down));
    focus(&mut f, FieldId::Team);
    typ(&mut f, "Support");
    focus(&mut f, FieldId::Channel);
    typ(&mut f, "Sales line");
    focus(&mut f, FieldId::Bot);
    typ(&mut f, "start");
    focus(&mut f, FieldId::Custom("orders".into()));
    typ(&mut f, "7");
    focus(&mut f, FieldId::Custom("plan".into()));
    typ(&mut f, "pro");
    focus(&mut f, FieldId::Note);
    typ(&mut f, "met at fair");
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Submitted);
    let body = new_contact_body(&f, &teams(), &channels(), &meta).unwrap();
    assert_eq!(
        serde_json::to_value(&body).unwrap(),
        json!({
            "identifier": "123", "source": "messaging_app", "name": "Rui", "tags": ["vip"],
            "custom_fields": {"orders": "7", "plan": "pro"}, "assigned_user": "bo@example.com",
            "team_uuid": "t2", "channel_uuid": "ch-2", "bot_status": "bot_start", "note": "met at fair"
        })
    );
}

#[test]
fn new_contact_channel_defaults_to_the_main_one_and_bot_can_be_ended() {
    let mut f = new_contact_form(&[s("messaging_app")], &[], &[], &[], &channels(), &BTreeMap::new());
    assert_eq!(
        f.value(&FieldId::Channel),
        Some(FormValue::One(Some(s("Main line (messaging_app, main)"))))
    );
    typ(&mut f, "1");
    focus(&mut f, FieldId::Name);
    typ(&mut f, "X");
    focus(&mut f, FieldId::Bot);
    typ(&mut f, "end");
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Submitted);
    let body = new_contact_body(&f, &[], &channels(), &BTreeMap::new()).unwrap();
    assert_eq!(body.channel_uuid.as_deref(), Some("ch-main"));
    assert_eq!(body.bot_status, Some(crate::api::BotAction::End));
}

#[test]
fn new_contact_without_messaging_app_needs_a_source() {
    let mut f = new_contact_form(&[], &[], &[], &[], &[], &BTreeMap::new());
    assert_eq!(f.value(&FieldId::Source), Some(FormValue::One(None)));
    typ(&mut f, "1");
    focus(&mut f, FieldId::Name);
    typ(&mut f, "X");
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Pending);
    assert_eq!(f.focused_key(), Some(&FieldId::Source));
    typ(&mut f, "telegram");
    assert_eq!(f.handle_key(&KEYS, ctrl('s')), FormOutcome::Submitted);
    assert_eq!(
        new_contact_body(&f, &[], &[], &BTreeMap::new()).unwrap().source,
        "telegram"
    );
}

#[test]
fn filter_form_starts_from_the_current_filter_and_round_trips() {
    let current = ContactFilter {
        source: None,
        tags: vec![s("vip")],
        team_uuid: Some(s("t2")),
        include_field_types: false,
    };
    let f = filter_form(&current, &[s("messaging_app")], &[s("vip"), s("new")], &teams());
    assert_eq!(f.value(&FieldId::Team), Some(FormValue::One(Some(s("Support")))));
    assert_eq!(filter_value(&f, &teams(), false), current);
    assert!(filter_value(&f, &teams(), true).include_field_types);
}

#[test]
fn filter_value_sends_chosen_source_tags_and_team() {
    let mut f = filter_form(
        &ContactFilter::default(),
        &[s("messaging_app")],
        &[s("vip"), s("new")],
        &teams(),
    );
    f.handle_key(&KEYS, k(KeyCode::Down));
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "new");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    typ(&mut f, "Late");
    f.handle_key(&KEYS, k(KeyCode::Enter));
    f.handle_key(&KEYS, k(KeyCode::Tab));
    typ(&mut f, "sales");
    assert_eq!(
        filter_value(&f, &teams(), false),
        ContactFilter {
            source: Some(s("messaging_app")),
            tags: vec![s("new"), s("Late")],
            team_uuid: Some(s("t1")),
            include_field_types: false
        }
    );
    let cleared = filter_form(&ContactFilter::default(), &[], &[], &teams());
    assert!(filter_value(&cleared, &teams(), false).is_empty());
}

#[test]
fn custom_status_picker_offers_clearing_first() {
    let statuses = vec![
        CustomStatus {
            id: s("s1"),
            name: s("Lunch"),
            emoji: s("🍕"),
            ..Default::default()
        },
        CustomStatus {
            id: s("s2"),
            name: s("Meeting"),
            emoji: s("📅"),
            ..Default::default()
        },
    ];
    let mut p = custom_status_picker(&statuses, Some("s2"));
    assert_eq!(p.highlighted(), Some("s2"), "the current status is highlighted");
    p.handle_key(&KEYS, k(KeyCode::Up));
    p.handle_key(&KEYS, k(KeyCode::Up));
    assert_eq!(p.handle_key(&KEYS, k(KeyCode::Enter)), PickOutcome::Chosen(s("")));
    let mut p = custom_status_picker(&statuses, None);
    typ_picker(&mut p, "lunch");
    assert_eq!(p.handle_key(&KEYS, k(KeyCode::Enter)), PickOutcome::Chosen(s("s1")));
}

fn typ_picker(p: &mut FuzzyPicker, text: &str) {
    for c in text.chars() {
        p.handle_key(&KEYS, k(KeyCode::Char(c)));
    }
}
