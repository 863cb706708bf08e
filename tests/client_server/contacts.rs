//! Contacts: list, get, create and update with every body field, close and
//! open, and every validation error leaving the server unchanged.

use std::collections::BTreeMap;

use frontdesk::api::*;
use serde_json::{Value, json};

use super::*;

/// Name of the manifest's first custom field of `kind`.
fn field_of(env: &Env, kind: &str) -> (String, Vec<String>) {
    env.srv
        .manifest
        .custom_fields
        .iter()
        .find(|(_, f)| f.field_type == kind)
        .map(|(n, f)| (n.clone(), f.options.clone()))
        .unwrap_or_else(|| panic!("the seeded account has a {kind} field"))
}

fn text(s: &str) -> FieldValue {
    FieldValue::Text(s.to_string())
}

#[tokio::test]
async fn list_and_get_match_the_server() {
    let env = small(60).await;
    let page = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let raw = env.raw_ok("/contacts").await;
    assert_eq!(page.items.len(), 20);
    assert_eq!((page.meta.page, page.meta.pages), (Some(1), Some(3)));
    assert_eq!(page.meta.next.as_deref(), raw["meta"]["next"].as_str());
    for (c, r) in page.items.iter().zip(raw["contacts"].as_array().unwrap()) {
        assert_eq!(c.uuid, r["uuid"].as_str().unwrap());
        assert_eq!(c.name, r["name"].as_str().unwrap());
        // A bsuid-only contact has a null phoneNumber.
        assert_eq!(c.phone_number, r["phoneNumber"].as_str().unwrap_or_default());
        assert_eq!(c.created_at, Some(wire_time(r["createdAt"].as_str().unwrap())));
        assert_eq!(c.closed_at, r["closedAt"].as_str().map(wire_time));
        assert_eq!(c.assigned_user.as_deref(), r["assignedUser"].as_str());
        assert_eq!(c.team_uuid(), r["team"]["uuid"].as_str());
        assert_eq!(c.note.as_deref(), r["note"].as_str());
        assert!(env.srv.manifest.sources.contains(&c.source), "{}", c.source);
        assert!(c.tags.iter().all(|t| env.srv.manifest.tags.contains(t)), "{:?}", c.tags);
        assert!(c.conversation_href.as_deref().is_some_and(|h| h.contains("/chat/")));
        assert!(c.custom_fields_metadata.is_none());
    }
    // The page after, by number and by the cursor, is the same batch.
    let by_number = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::Number(2))
        .await
        .unwrap();
    let by_cursor = env
        .client
        .list_contacts(
            &ContactFilter::default(),
            &PageRequest::After(page.meta.next.clone().unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(by_number.items, by_cursor.items);
    assert_eq!(by_cursor.meta.page, None);

    // One contact with its field types: every field of the account, typed.
    let first = &page.items[0];
    let got = env
        .client
        .get_contact(&ContactId::new(first.uuid.to_string()), true)
        .await
        .unwrap();
    let meta = got.custom_fields_metadata.clone().expect("metadata was asked for");
    let names: Vec<&String> = meta.keys().collect();
    let expected: Vec<&String> = env.srv.manifest.custom_fields.keys().collect();
    assert_eq!(names, expected);
    for (name, m) in &meta {
        let def = &env.srv.manifest.custom_fields[name];
        assert_eq!(m.field_type.as_str(), def.field_type, "{name}");
        if def.field_type == "checkbox" {
            assert!(matches!(m.value, FieldValue::List(_)), "{name}: {:?}", m.value);
            assert_eq!(m.options, def.options);
        }
        if let Some(v) = got.custom_fields.get(name) {
            assert_eq!(&m.value, v, "{name}");
        }
    }
    let meta_of_first = got.custom_fields_metadata.clone();
    let plain = env
        .client
        .get_contact(&ContactId::new(first.uuid.to_string()), false)
        .await
        .unwrap();
    assert_eq!(
        Contact {
            custom_fields_metadata: None,
            ..got
        },
        plain
    );
    assert_eq!(&plain, first);

    // The list carries the field types too when asked, on every contact.
    let typed = env
        .client
        .list_contacts(
            &ContactFilter {
                include_field_types: true,
                ..Default::default()
            },
            &PageRequest::First,
        )
        .await
        .unwrap();
    assert_eq!(typed.items.len(), 20);
    for c in &typed.items {
        let meta = c
            .custom_fields_metadata
            .as_ref()
            .expect("metadata on every listed contact");
        assert_eq!(meta.len(), env.srv.manifest.custom_fields.len());
    }
    assert_eq!(typed.items[0].custom_fields_metadata, meta_of_first);

    let missing = "00000000000000000000000000000000";
    let e = env
        .client
        .get_contact(&ContactId::new(missing.to_string()), false)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains(missing)),
        "{e:?}"
    );
}

#[tokio::test]
async fn create_and_update_every_field() {
    let env = small(40).await;
    let m = env.srv.manifest.clone();
    let (f_text, _) = field_of(&env, "text");
    let (f_email, _) = field_of(&env, "email");
    let (f_number, _) = field_of(&env, "number");
    let (f_date, _) = field_of(&env, "date");
    let (f_drop, drop_opts) = field_of(&env, "dropdown");
    let (f_box, box_opts) = field_of(&env, "checkbox");
    let side_channel = m.channels.iter().find(|c| !c.main).unwrap();

    let body = NewContact {
        identifier: "+15559990001".into(),
        source: "messaging_app".into(),
        name: "Zoë Contract 🧪".into(),
        // Tags match case-insensitively and come back as the account spells them.
        tags: Some(vec![m.tags[0].to_uppercase(), m.tags[1].clone()]),
        custom_fields: Some(BTreeMap::from([
            (f_text.clone(), json!("Acme")),
            (f_email.clone(), json!("zoe@example.org")),
            (f_number.clone(), json!("12.5")),
            (f_date.clone(), json!("1990-04-30")),
            (f_drop.clone(), json!(drop_opts[1])),
            (f_box.clone(), json!([box_opts[0], box_opts[1]])),
        ])),
        assigned_user: Some(m.collaborators[1].clone()),
        team_uuid: Some(m.teams[2].uuid.clone()),
        channel_uuid: Some(side_channel.uuid.clone()),
        bot_status: Some(BotAction::End),
        note: Some("Prefers mornings".into()),
    };
    let c = env.client.create_contact(&body).await.unwrap();
    assert_eq!(c.uuid.len(), 32);
    assert_eq!(c.name, "Zoë Contract 🧪");
    assert_eq!(c.phone_number, "+15559990001");
    assert_eq!(c.source, "messaging_app");
    assert_eq!(c.tags, vec![m.tags[0].clone(), m.tags[1].clone()]);
    assert_eq!(c.custom_fields[&f_text], text("Acme"));
    assert_eq!(c.custom_fields[&f_email], text("zoe@example.org"));
    assert_eq!(c.custom_fields[&f_number], text("12.5"));
    assert_eq!(c.custom_fields[&f_date], text("1990-04-30"));
    assert_eq!(c.custom_fields[&f_drop], text(&drop_opts[1]));
    assert_eq!(
        c.custom_fields[&f_box],
        FieldValue::List(vec![box_opts[0].clone(), box_opts[1].clone()])
    );
    assert_eq!(c.assigned_user.as_deref(), Some(m.collaborators[1].as_str()));
    assert_eq!(c.team_uuid(), Some(m.teams[2].uuid.as_str()));
    assert_eq!(c.note.as_deref(), Some("Prefers mornings"));
    assert!(c.is_open());
    assert!(recent(c.created_at, 60), "{:?}", c.created_at);
    assert_eq!(
        env.client
            .get_bot(&ContactId::new(c.uuid.to_string()))
            .await
            .unwrap()
            .status,
        BotStatus::Ended
    );
    // What the server holds is what the client was told.
    assert_eq!(
        env.client
            .get_contact(&ContactId::new(c.uuid.to_string()), false)
            .await
            .unwrap(),
        c
    );
    let raw = env.raw_contact(&c.uuid).await;
    assert_eq!(
        raw["customFields"][&f_box],
        json!(format!("[\"{}\",\"{}\"]", box_opts[0], box_opts[1]))
    );

    // The bare minimum: empty tags and fields, the bot started by default.
    let bare = env
        .client
        .create_contact(&NewContact {
            identifier: "+15559990002".into(),
            source: "messaging_app".into(),
            name: "Bare".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(bare.tags.is_empty() && bare.custom_fields.is_empty());
    assert_eq!(
        (bare.assigned_user.clone(), bare.note.clone(), bare.team_uuid()),
        (None, None, None)
    );
    assert_eq!(
        env.client
            .get_bot(&ContactId::new(bare.uuid.to_string()))
            .await
            .unwrap()
            .status,
        BotStatus::Started
    );

    // Update every field.
    let patch = ContactPatch {
        tags: Some(vec![m.tags[3].clone()]),
        custom_fields: Some(BTreeMap::from([
            (f_drop.clone(), json!(drop_opts[0])),
            (f_box.clone(), json!([box_opts[2]])),
            (f_text.clone(), Value::Null),
        ])),
        name: Some("Zoë Renamed".into()),
        assigned_user: Some(m.collaborators[2].clone()),
        unassign_user: None,
        team_uuid: Some(m.teams[0].uuid.clone()),
        bot_status: Some(BotAction::Start),
        note: Some("Call after 5".into()),
    };
    let u = env
        .client
        .update_contact(&ContactId::new(c.uuid.to_string()), &patch)
        .await
        .unwrap();
    assert_eq!(u.name, "Zoë Renamed");
    assert_eq!(u.tags, vec![m.tags[3].clone()]);
    assert_eq!(u.custom_fields[&f_drop], text(&drop_opts[0]));
    assert_eq!(u.custom_fields[&f_box], FieldValue::List(vec![box_opts[2].clone()]));
    assert!(!u.custom_fields.contains_key(&f_text), "null clears a field");
    assert_eq!(
        u.custom_fields[&f_email],
        text("zoe@example.org"),
        "untouched fields stay"
    );
    assert_eq!(u.assigned_user.as_deref(), Some(m.collaborators[2].as_str()));
    assert_eq!(u.team_uuid(), Some(m.teams[0].uuid.as_str()));
    assert_eq!(u.note.as_deref(), Some("Call after 5"));
    assert_eq!(
        env.client
            .get_bot(&ContactId::new(c.uuid.to_string()))
            .await
            .unwrap()
            .status,
        BotStatus::Started
    );
    assert_eq!(
        env.client
            .get_contact(&ContactId::new(c.uuid.to_string()), false)
            .await
            .unwrap(),
        u
    );

    // note: absent keeps, text sets, "" clears; unassign_user removes the agent.
    let keep = ContactPatch {
        name: Some("Zoë Kept".into()),
        ..Default::default()
    };
    let k = env
        .client
        .update_contact(&ContactId::new(c.uuid.to_string()), &keep)
        .await
        .unwrap();
    assert_eq!(k.note.as_deref(), Some("Call after 5"));
    assert_eq!(env.raw_contact(&c.uuid).await["note"], "Call after 5");
    let clear = ContactPatch {
        note: Some(String::new()),
        unassign_user: Some(true),
        ..Default::default()
    };
    let cl = env
        .client
        .update_contact(&ContactId::new(c.uuid.to_string()), &clear)
        .await
        .unwrap();
    assert_eq!((cl.note.clone(), cl.assigned_user.clone()), (None, None));
    let raw = env.raw_contact(&c.uuid).await;
    assert_eq!((&raw["note"], &raw["assignedUser"]), (&Value::Null, &Value::Null));
    assert_eq!(raw["name"], "Zoë Kept");

    // The reference addresses PATCH by the contact's identifier.
    let by_phone = env
        .client
        .update_contact(
            &ContactId::new("+15559990001".to_string()),
            &ContactPatch {
                note: Some("by identifier".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(by_phone.uuid, c.uuid);
    assert_eq!(env.raw_contact(&c.uuid).await["note"], "by identifier");
}

#[tokio::test]
async fn close_and_open_the_conversation() {
    let env = small(30).await;
    let page = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap();
    let c = page.items.iter().find(|c| c.is_open()).expect("an open conversation");
    // The server answers close with an object, open with a one-element list.
    let closed = env
        .client
        .close_conversation(&ContactId::new(c.uuid.to_string()))
        .await
        .unwrap();
    assert_eq!(closed.uuid, c.uuid);
    assert!(recent(closed.closed_at, 60), "{:?}", closed.closed_at);
    assert!(
        closed.funnel_id.as_deref().is_some_and(|f| f.len() == 36),
        "{:?}",
        closed.funnel_id
    );
    assert!(closed.team.is_some());
    let raw = env.raw_contact(&c.uuid).await;
    let at = raw["closedAt"].as_str().unwrap();
    assert!(at.ends_with('Z'), "{at}");
    assert_eq!(closed.closed_at, Some(wire_time(at)));

    let opened = env
        .client
        .open_conversation(&ContactId::new(c.uuid.to_string()))
        .await
        .unwrap();
    assert!(opened.is_open());
    assert_eq!(env.raw_contact(&c.uuid).await["closedAt"], Value::Null);
    assert_eq!(
        Contact {
            closed_at: None,
            ..closed
        },
        opened
    );

    let missing = "ffffffffffffffffffffffffffffffff";
    for e in [
        env.client
            .close_conversation(&ContactId::new(missing.to_string()))
            .await
            .unwrap_err(),
        env.client
            .open_conversation(&ContactId::new(missing.to_string()))
            .await
            .unwrap_err(),
    ] {
        assert!(
            matches!(&e, ApiError::NotFound { what } if what.contains(missing)),
            "{e:?}"
        );
    }
}

#[tokio::test]
async fn invalid_writes_name_the_field_and_change_nothing() {
    let env = small(30).await;
    let m = env.srv.manifest.clone();
    let target = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .uuid
        .clone();
    let before = env.raw_contact(&target).await;
    let (f_email, _) = field_of(&env, "email");
    let (f_number, _) = field_of(&env, "number");
    let (f_date, _) = field_of(&env, "date");
    let (f_drop, _) = field_of(&env, "dropdown");
    let (f_box, box_opts) = field_of(&env, "checkbox");
    let field = |name: &str, v: Value| Some(BTreeMap::from([(name.to_string(), v)]));

    let cases: Vec<(&str, ContactPatch)> = vec![
        (
            "tags",
            ContactPatch {
                tags: Some(vec![m.tags[0].clone(), "no-such-tag".into()]),
                ..Default::default()
            },
        ),
        (
            "assigned_user",
            ContactPatch {
                assigned_user: Some("nobody@nowhere.example".into()),
                ..Default::default()
            },
        ),
        (
            "team_uuid",
            ContactPatch {
                team_uuid: Some("0".repeat(32)),
                ..Default::default()
            },
        ),
        (
            "custom_fields.",
            ContactPatch {
                custom_fields: field(&f_date, json!("2024-02-30")),
                ..Default::default()
            },
        ),
        (
            "custom_fields.",
            ContactPatch {
                custom_fields: field(&f_number, json!("twelve")),
                ..Default::default()
            },
        ),
        (
            "custom_fields.",
            ContactPatch {
                custom_fields: field(&f_email, json!("not-an-email")),
                ..Default::default()
            },
        ),
        (
            "custom_fields.",
            ContactPatch {
                custom_fields: field(&f_drop, json!("Not An Option")),
                ..Default::default()
            },
        ),
        (
            "custom_fields.",
            ContactPatch {
                custom_fields: field(&f_box, json!([box_opts[0], "Not An Option"])),
                ..Default::default()
            },
        ),
        (
            "note",
            ContactPatch {
                name: Some("Should Not Stick".into()),
                note: Some("n".repeat(1001)),
                ..Default::default()
            },
        ),
    ];
    let field_for = |prefix: &str, p: &ContactPatch| -> String {
        match prefix {
            "custom_fields." => format!(
                "custom_fields.{}",
                p.custom_fields.as_ref().unwrap().keys().next().unwrap()
            ),
            other => other.to_string(),
        }
    };
    for (prefix, patch) in &cases {
        let want = field_for(prefix, patch);
        let e = env
            .client
            .update_contact(&ContactId::new(target.to_string()), patch)
            .await
            .unwrap_err();
        assert_eq!(field_names(&e), vec![want.clone()], "{patch:?}: {e}");
        assert!(e.to_string().contains(&want), "the message names the field: {e}");
        assert_eq!(env.raw_contact(&target).await, before, "{want}: nothing changed");

        // The same values on a create are refused as well, and nothing is created.
        let create = NewContact {
            identifier: "+15550000999".into(),
            source: "messaging_app".into(),
            name: "Never Created".into(),
            tags: patch.tags.clone(),
            custom_fields: patch.custom_fields.clone(),
            assigned_user: patch.assigned_user.clone(),
            team_uuid: patch.team_uuid.clone(),
            note: patch.note.clone(),
            ..Default::default()
        };
        let e = env.client.create_contact(&create).await.unwrap_err();
        assert_eq!(field_names(&e), vec![want.clone()], "create {want}: {e}");
        let gone = env
            .client
            .get_contact(&ContactId::new("+15550000999".to_string()), false)
            .await
            .unwrap_err();
        assert!(matches!(gone, ApiError::NotFound { .. }), "{gone:?}");
    }
    // The limit itself is allowed.
    let ok = ContactPatch {
        note: Some("é".repeat(1000)),
        ..Default::default()
    };
    let c = env
        .client
        .update_contact(&ContactId::new(target.to_string()), &ok)
        .await
        .unwrap();
    assert_eq!(c.note.map(|n| n.chars().count()), Some(1000));
    // A create missing its required fields names each of them.
    let e = env.client.create_contact(&NewContact::default()).await.unwrap_err();
    assert_eq!(field_names(&e), vec!["identifier", "name", "source"]);
}

#[tokio::test]
async fn bot_status_needs_an_enabled_bot() {
    let env = spawn(ServerConfig {
        contacts: 20,
        bot_enabled: false,
        ..Default::default()
    })
    .await;
    assert!(!env.srv.manifest.bot_enabled);
    let target = env
        .client
        .list_contacts(&ContactFilter::default(), &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .uuid
        .clone();
    let before = env.raw_contact(&target).await;
    let patch = ContactPatch {
        bot_status: Some(BotAction::Start),
        name: Some("Should Not Stick".into()),
        ..Default::default()
    };
    let e = env
        .client
        .update_contact(&ContactId::new(target.to_string()), &patch)
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["bot_status"]);
    assert!(e.to_string().contains("bot"), "{e}");
    assert_eq!(env.raw_contact(&target).await, before);
    let e = env
        .client
        .create_contact(&NewContact {
            identifier: "+15550000777".into(),
            source: "messaging_app".into(),
            name: "No Bot".into(),
            bot_status: Some(BotAction::End),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["bot_status"]);
    assert!(matches!(
        env.client
            .get_contact(&ContactId::new("+15550000777".to_string()), false)
            .await,
        Err(ApiError::NotFound { .. })
    ));
    // The bot endpoints: reading says there is none, writing is a validation error.
    let e = env
        .client
        .get_bot(&ContactId::new(target.to_string()))
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    let e = env
        .client
        .set_bot(&ContactId::new(target.to_string()), BotAction::Start)
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["status"]);
}
