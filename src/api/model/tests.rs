//! Decoding every response shape of api.md and extensions.md from the
//! fixtures under tests/fixtures/api, through the same `Answer` path the
//! client uses.

use std::collections::BTreeMap;

use chrono::{TimeZone, Utc};

use super::time::parse_timestamp;
use super::*;
use crate::api::page::Page;
use crate::api::request::{CustomStatusChange, UserStatusUpdate};
use crate::api::response::Answer;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../../tests/fixtures/api/", $name))
    };
}

fn answer(text: &str) -> Answer {
    Answer::from_json("TEST", text).expect("fixture is JSON")
}

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap()
}

#[test]
fn three_timestamp_formats() {
    assert_eq!(parse_timestamp("2024-03-01T10:00:00Z"), Some(at(2024, 3, 1, 10, 0, 0)));
    let t = parse_timestamp("2024-03-01T10:00:00.123+02:00").unwrap();
    assert_eq!(t, at(2024, 3, 1, 8, 0, 0) + chrono::Duration::milliseconds(123));
    assert_eq!(
        parse_timestamp("2024-03-01 10:00:00 +0200"),
        Some(at(2024, 3, 1, 8, 0, 0))
    );
    assert_eq!(parse_timestamp("yesterday"), None);
}

#[test]
fn contact_list_with_checkbox_unknown_source_and_fields() {
    let page: Page<Contact> = answer(fixture!("contacts_list.json")).page(&["contacts"]).unwrap();
    assert_eq!(page.meta.page, Some(1));
    assert_eq!(page.meta.pages, Some(3));
    assert_eq!(page.meta.next.as_deref(), Some("Y3Vyc29yLTE="));
    let ana = &page.items[0];
    assert_eq!(ana.uuid, "0a1b2c3d4e5f60718293a4b5c6d7e8f9");
    assert_eq!(ana.phone_number, "+5511999990000");
    assert_eq!(ana.created_at, Some(at(2024, 3, 1, 10, 0, 0)));
    assert_eq!(ana.assigned_user.as_deref(), Some("agent@example.com"));
    assert_eq!(ana.tags, vec!["vip", "lead"]);
    assert_eq!(
        ana.conversation_href.as_deref(),
        Some("https://app.example.com/chat/9f8e7d6c5b4a39281706f5e4d3c2b1a0")
    );
    assert_eq!(
        ana.custom_fields["Interests"],
        FieldValue::List(vec!["shoes".into(), "bags".into()])
    );
    assert_eq!(ana.custom_fields["Plan"], FieldValue::Text("gold".into()));
    assert!(ana.is_open());
    let bo = &page.items[1];
    assert_eq!(bo.source, "telegram_business");
    assert!(bo.tags.is_empty());
    assert_eq!(bo.avatar_url.as_deref(), Some("https://cdn.example.com/a.png"));
    assert_eq!(
        bo.created_at,
        Some(at(2024, 3, 1, 8, 0, 0) + chrono::Duration::milliseconds(123))
    );
}

#[test]
fn contact_as_one_element_list_with_field_metadata() {
    let c: Contact = answer(fixture!("contact_get_list_form.json"))
        .one(&["contact"])
        .unwrap();
    let meta = c.custom_fields_metadata.expect("metadata");
    assert_eq!(meta["Plan"].field_type, FieldType::Dropdown);
    assert_eq!(meta["Plan"].options, vec!["gold", "silver"]);
    assert_eq!(meta["Interests"].field_type, FieldType::Checkbox);
    assert_eq!(
        meta["Interests"].value,
        FieldValue::List(vec!["shoes".into(), "bags".into()])
    );
    assert_eq!(meta["Birthday"].field_type, FieldType::Date);
    assert!(meta["Birthday"].options.is_empty());
    assert_eq!(meta["Mood"].field_type, FieldType::Other("emoji_scale".into()));
}

#[test]
fn contact_as_object_with_close_fields() {
    let c: Contact = answer(fixture!("contact_close_object_form.json"))
        .one(&["contact"])
        .unwrap();
    assert_eq!(c.closed_at, Some(at(2024, 3, 2, 8, 30, 0)));
    assert!(!c.is_open());
    assert_eq!(c.funnel_id.as_deref(), Some("5b2f0c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"));
    assert_eq!(c.team, Some(ContactTeam::default()));
    assert_eq!(c.team_uuid(), None);
    let open: Contact = answer(fixture!("contact_open_list_form.json"))
        .one(&["contact"])
        .unwrap();
    assert!(open.is_open());
}

#[test]
fn both_contact_forms_decode_the_same() {
    let list = r#"{"contact":[{"uuid":"c1","name":"A"}]}"#;
    let object = r#"{"contact":{"uuid":"c1","name":"A"}}"#;
    let a: Contact = answer(list).one(&["contact"]).unwrap();
    let b: Contact = answer(object).one(&["contact"]).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.name, "A");
}

#[test]
fn messages_with_notes_and_unknown_status() {
    let page: Page<Message> = answer(fixture!("messages.json")).page(&["messages"]).unwrap();
    assert_eq!(page.items.len(), 4);
    assert_eq!(page.meta.next, None);
    assert_eq!(page.items[0].status, MessageStatus::Received);
    assert_eq!(page.items[1].uuid, None);
    assert_eq!(page.items[1].status, MessageStatus::Note);
    assert_eq!(page.items[2].status, MessageStatus::Sent);
    assert_eq!(
        page.items[2].created_at,
        Some(at(2024, 3, 1, 13, 0, 0) + chrono::Duration::milliseconds(500))
    );
    assert_eq!(page.items[3].status, MessageStatus::Other("deleted_by_sender".into()));
    assert_eq!(page.items[3].status.as_str(), "deleted_by_sender");
}

#[test]
fn message_status_and_sent_message() {
    let m: MessageSendRequest = answer(fixture!("message_status.json")).one(&["message"]).unwrap();
    assert_eq!(m.status, DeliveryStatus::Enqueued);
    let p = m.message_status_payload.unwrap();
    assert_eq!(p.id, "3f2e1d0c-b9a8-4766-8554-433221100fed");
    assert_eq!(p.status_type, "enqueued");
    assert_eq!(p.destination.as_deref(), Some("+5511999990000"));
    let inner = p.payload.unwrap();
    assert_eq!(inner.payload_type, "session");
    assert_eq!(inner.messaging_app_message_id.as_deref(), Some("wamid.ABC"));
    let s: SentMessage = answer(fixture!("message_sent.json")).one(&["message"]).unwrap();
    assert_eq!(s.uuid, "s2");
    assert_eq!(s.status, DeliveryStatus::Enqueued);
    let s: SentMessage = answer(r#"{"message":{"uuid":"s3","status":"bounced"}}"#)
        .one(&["message"])
        .unwrap();
    assert_eq!(s.status, DeliveryStatus::Other("bounced".into()));
}

#[test]
fn bots_known_and_unknown() {
    let b: Bot = answer(fixture!("bot.json")).one(&["bot"]).unwrap();
    assert_eq!(b.status, BotStatus::Started);
    assert!(b.is_running());
    assert_eq!(b.version, Some(3));
    assert_eq!(b.latest_bot_version, Some(true));
    assert_eq!(b.conversation_started_at, Some(at(2024, 3, 1, 10, 0, 0)));
    let b: Bot = answer(fixture!("bot_unknown_status.json")).one(&["bot"]).unwrap();
    assert_eq!(b.status, BotStatus::Other("paused_by_admin".into()));
    assert!(!b.is_running());
    let b: Bot = answer(r#"{"bot":{"uuid":"b1","name":"G"}}"#).one(&["bot"]).unwrap();
    assert_eq!(b.status, BotStatus::Other(String::new()));
}

#[test]
fn templates_list_get_and_both_rename_forms() {
    let page: Page<Template> = answer(fixture!("templates.json")).page(&["templates"]).unwrap();
    assert_eq!(page.items.len(), 2);
    assert_eq!(page.meta.pages, Some(2));
    assert_eq!(page.meta.next, None);
    assert_eq!(page.items[0].category, "MARKETING");
    assert_eq!(page.items[1].status, "in_review");
    let t: Template = answer(fixture!("template.json"))
        .one(&["template", "templates"])
        .unwrap();
    assert_eq!(t.title, "Welcome");
    for text in [
        fixture!("template_rename_templates.json"),
        fixture!("template_rename_template.json"),
    ] {
        let t: Template = answer(text).one(&["templates", "template"]).unwrap();
        assert_eq!(t.title, "Hello again");
        assert_eq!(t.category, "");
    }
}

#[test]
fn channels_with_unknown_type() {
    let c: Channel = answer(fixture!("channel.json")).one(&["channel"]).unwrap();
    assert!(c.main);
    assert_eq!(c.channel_type, "messaging_app");
    let page: Page<Channel> = answer(fixture!("channels.json")).page(&["channels"]).unwrap();
    assert_eq!(page.items[1].channel_type, "carrier_pigeon");
}

#[test]
fn funnels_teams_members_plan() {
    let f: Page<Funnel> = answer(fixture!("funnels.json")).page(&["funnels"]).unwrap();
    assert_eq!(f.meta, crate::api::Meta::default());
    assert_eq!(f.items[0].created_at, Some(at(2024, 3, 1, 8, 0, 0)));
    assert_eq!(f.items[0].position, 1);
    let t: Team = answer(fixture!("team.json")).one(&["team"]).unwrap();
    assert!(t.default);
    assert_eq!(t.members, Some(4));
    let teams: Page<Team> = answer(fixture!("teams.json")).page(&["teams"]).unwrap();
    assert_eq!(teams.items, vec![t.clone()]);
    let m: Page<TeamMember> = answer(fixture!("team_members.json")).page(&["users"]).unwrap();
    assert_eq!(m.items[0].available, Some(true));
    assert!(m.items[0].last_updated_at.is_some());
    assert_eq!(m.items[1].user_custom_status, None);
    let p: Plan = answer(fixture!("plan.json")).whole().unwrap();
    assert_eq!(p.plan, "Growth");
    assert_eq!((p.included_channels, p.licenses, p.active_users), (3, 10, 7));
    assert_eq!(p.teams, vec![t]);
}

#[test]
fn custom_statuses_and_user_status() {
    let c: CustomStatus = answer(fixture!("custom_status.json")).one(&["customStatus"]).unwrap();
    assert_eq!(c.name, "Lunch");
    assert_eq!(c.created_at, Some(at(2024, 3, 1, 8, 0, 0)));
    assert_eq!(c.updated_at, Some(at(2024, 3, 1, 10, 0, 0)));
    let l: Page<CustomStatus> = answer(fixture!("custom_statuses.json"))
        .page(&["customStatuses"])
        .unwrap();
    assert_eq!(l.items, vec![c]);
    let u: UserStatus = answer(fixture!("user_status.json")).under(&["user_status"]).unwrap();
    let cs = u.custom_status.unwrap();
    assert_eq!(cs.name.as_deref(), Some("Lunch"));
    assert_eq!(
        cs.last_updated_at,
        Some(at(2024, 3, 1, 8, 0, 0) + chrono::Duration::milliseconds(123))
    );
    let a = u.appearance.unwrap();
    assert!(!a.available);
    assert!(a.last_updated_at.is_some());
}

#[test]
fn webhook_events_with_unknown_kind_and_quoted_meta() {
    let page: Page<WebhookEvent> = answer(fixture!("webhook_events.json"))
        .page(&["webhook_events"])
        .unwrap();
    assert_eq!(page.meta.page, Some(1));
    assert_eq!(page.meta.pages, Some(2));
    let ok = &page.items[0];
    assert_eq!(ok.event, "message_created");
    assert_eq!(ok.payload, "message_object");
    assert!(ok.success);
    assert_eq!(ok.response.as_ref().unwrap().code, Some(200));
    assert_eq!(page.items[1].event, "agent_teleported");
    assert!(!page.items[1].success);
}

#[test]
fn a_list_under_a_missing_key_is_a_decode_error() {
    let e = answer(r#"{"items":[]}"#).page::<Template>(&["templates"]).unwrap_err();
    assert!(matches!(e, crate::api::ApiError::Decode { .. }), "{e:?}");
    let p: Page<Template> = answer(r#"{"templates":null}"#).page(&["templates"]).unwrap();
    assert!(p.items.is_empty());
}

#[test]
fn validate_each_field_type() {
    let opts = vec!["gold".to_string(), "silver".to_string()];
    let t = |s: &str| FieldValue::Text(s.into());
    let ok = |ty: FieldType, v: FieldValue| validate_field_value("F", &ty, &opts, &v);

    assert_eq!(ok(FieldType::Text, t("anything")), Ok(serde_json::json!("anything")));
    assert!(ok(FieldType::Text, FieldValue::List(vec![])).is_err());

    assert_eq!(ok(FieldType::Email, t(" a@b.co ")), Ok(serde_json::json!("a@b.co")));
    let e = ok(FieldType::Email, t("not-an-email")).unwrap_err();
    assert!(e.starts_with("F:") && e.contains("not an email"), "{e}");

    assert_eq!(ok(FieldType::Number, t("42.5")), Ok(serde_json::json!("42.5")));
    assert!(ok(FieldType::Number, t("forty")).unwrap_err().contains("not a number"));
    assert!(ok(FieldType::Number, t("NaN")).is_err());

    assert_eq!(
        ok(FieldType::Date, t("2024-02-29")),
        Ok(serde_json::json!("2024-02-29"))
    );
    assert!(ok(FieldType::Date, t("2023-02-29")).is_err());
    assert!(ok(FieldType::Date, t("01/03/2024")).unwrap_err().contains("YYYY-MM-DD"));

    assert_eq!(ok(FieldType::Dropdown, t("gold")), Ok(serde_json::json!("gold")));
    let e = ok(FieldType::Dropdown, t("bronze")).unwrap_err();
    assert!(e.contains("bronze") && e.contains("gold, silver"), "{e}");

    assert_eq!(
        ok(
            FieldType::Checkbox,
            FieldValue::List(vec!["gold".into(), "silver".into()])
        ),
        Ok(serde_json::json!(["gold", "silver"]))
    );
    assert_eq!(
        ok(FieldType::Checkbox, t("gold, silver")),
        Ok(serde_json::json!(["gold", "silver"]))
    );
    assert!(ok(FieldType::Checkbox, t("gold, tin")).unwrap_err().contains("tin"));
}

#[test]
fn user_status_update_three_states() {
    let json = |u: &UserStatusUpdate| serde_json::to_value(u).unwrap();
    let keep = UserStatusUpdate {
        available: Some(true),
        custom_status: CustomStatusChange::Keep,
    };
    assert_eq!(json(&keep), serde_json::json!({"available": true}));
    let clear = UserStatusUpdate {
        available: None,
        custom_status: CustomStatusChange::Clear,
    };
    assert_eq!(json(&clear), serde_json::json!({"custom_status_uuid": null}));
    let set = UserStatusUpdate {
        available: Some(false),
        custom_status: CustomStatusChange::Set("cs1".into()),
    };
    assert_eq!(
        json(&set),
        serde_json::json!({"available": false, "custom_status_uuid": "cs1"})
    );
    assert_eq!(json(&UserStatusUpdate::default()), serde_json::json!({}));
}

#[test]
fn validate_a_whole_custom_field_map() {
    let c: Contact = answer(fixture!("contact_get_list_form.json"))
        .one(&["contact"])
        .unwrap();
    let meta = c.custom_fields_metadata.unwrap();
    let good: BTreeMap<String, FieldValue> = [
        ("Plan".to_string(), FieldValue::Text("silver".into())),
        ("Interests".to_string(), FieldValue::List(vec!["hats".into()])),
    ]
    .into();
    let body = validate_custom_fields(&good, &meta).unwrap();
    assert_eq!(body["Plan"], serde_json::json!("silver"));
    assert_eq!(body["Interests"], serde_json::json!(["hats"]));
    let bad: BTreeMap<String, FieldValue> = [
        ("Plan".to_string(), FieldValue::Text("bronze".into())),
        ("Birthday".to_string(), FieldValue::Text("May 1".into())),
        ("Shoe size".to_string(), FieldValue::Text("42".into())),
    ]
    .into();
    let problems = validate_custom_fields(&bad, &meta).unwrap_err();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().any(|p| p.starts_with("Shoe size:")));
    assert!(problems.iter().any(|p| p.starts_with("Birthday:")));
}

#[test]
fn open_sets_are_typed_and_keep_unknown_values() {
    let t: Template = serde_json::from_str(r#"{"uuid":"t","status":"approved"}"#).unwrap();
    assert_eq!(t.status, TemplateStatus::Approved);
    // Case is the server's: "APPROVED" is not a value the API names, so it
    // is kept as it is (and is not sendable), the same everywhere.
    let t: Template = serde_json::from_str(r#"{"uuid":"t","status":"APPROVED"}"#).unwrap();
    assert_eq!(t.status, TemplateStatus::Other("APPROVED".into()));
    assert_eq!(serde_json::to_value(&t).unwrap()["status"], "APPROVED");
    let c: Channel = serde_json::from_str(r#"{"uuid":"c","type":"whatsapp"}"#).unwrap();
    assert_eq!(c.channel_type, ChannelType::Whatsapp);
    let c: Channel = serde_json::from_str(r#"{"uuid":"c"}"#).unwrap();
    assert_eq!(c.channel_type.as_str(), "");
    let e: WebhookEvent = serde_json::from_str(r#"{"event":"conversation_closed"}"#).unwrap();
    assert_eq!(e.event, WebhookEventKind::ConversationClosed);
}

#[test]
fn a_members_custom_status_reads_and_writes_both_shapes() {
    let m: TeamMember =
        serde_json::from_str(r#"{"email":"a@x","userCustomStatus":{"id":"cs1","name":"Lunch","emoji":"🍜"}}"#).unwrap();
    let s = m.user_custom_status.clone().unwrap();
    assert_eq!((s.id.as_deref(), s.label().as_str()), (Some("cs1"), "🍜 Lunch"));
    assert_eq!(
        serde_json::to_value(&m).unwrap()["userCustomStatus"],
        serde_json::json!({"id":"cs1","name":"Lunch","emoji":"🍜"})
    );
    let m: TeamMember = serde_json::from_str(r#"{"email":"a@x","userCustomStatus":"Away"}"#).unwrap();
    let s = m.user_custom_status.clone().unwrap();
    assert_eq!((s.id.clone(), s.label()), (None, "Away".to_string()));
    assert_eq!(serde_json::to_value(&m).unwrap()["userCustomStatus"], "Away");
    let m: TeamMember = serde_json::from_str(r#"{"email":"a@x","userCustomStatus":null}"#).unwrap();
    assert_eq!(m.user_custom_status, None);
}

#[test]
fn an_absent_closed_at_is_an_unknown_state_and_stays_absent_when_written() {
    let absent: Contact = serde_json::from_value(serde_json::json!({"uuid": "a"})).unwrap();
    assert_eq!(absent.state(), ConversationState::Unknown);
    assert_eq!(absent.closed_at, None);
    let written = serde_json::to_value(&absent).unwrap();
    assert!(written.get("closedAt").is_none(), "{written}");
    let again: Contact = serde_json::from_value(written).unwrap();
    assert_eq!(again.state(), ConversationState::Unknown);

    let open: Contact = serde_json::from_value(serde_json::json!({"uuid": "b", "closedAt": null})).unwrap();
    assert_eq!(open.state(), ConversationState::Open);
    assert_eq!(
        serde_json::to_value(&open).unwrap()["closedAt"],
        serde_json::Value::Null
    );
    let closed: Contact =
        serde_json::from_value(serde_json::json!({"uuid": "c", "closedAt": "2026-01-01T00:00:00Z"})).unwrap();
    assert_eq!(closed.state(), ConversationState::Closed);
    assert_eq!(
        serde_json::to_value(&closed).unwrap()["closedAt"],
        "2026-01-01T00:00:00Z"
    );
    // A contact frontdesk makes itself is of known state.
    assert_eq!(Contact::default().state(), ConversationState::Open);
}
