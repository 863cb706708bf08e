//! Templates, channels, funnels, teams, plan, custom statuses, user status
//! and the webhook event log.

use std::collections::HashSet;

use frontdesk::api::*;
use futures::StreamExt;

use super::*;

async fn collect<T>(mut s: futures::stream::BoxStream<'static, Result<Page<T>, ApiError>>) -> (usize, Vec<T>) {
    let (mut pages, mut items) = (0, Vec::new());
    while let Some(p) = s.next().await {
        pages += 1;
        items.extend(p.unwrap().items);
    }
    (pages, items)
}

#[tokio::test]
async fn templates_channels_funnels() {
    let env = small(10).await;
    // Templates: the numbered walk gives every page's items once.
    let first = env.client.list_templates(None).await.unwrap();
    let raw = env.raw_ok("/templates").await;
    assert_eq!(first.items.len(), raw["templates"].as_array().unwrap().len());
    assert_eq!(first.meta.pages, raw["meta"]["pages"].as_u64().map(|p| p as u32));
    let (pages, walked) = collect(env.client.walk_templates()).await;
    assert_eq!(Some(pages as u32), first.meta.pages);
    assert_eq!(walked[..first.items.len()], first.items[..]);
    assert!(walked.iter().any(|t| t.status == "approved") && walked.iter().any(|t| t.status == "rejected"));
    for (t, r) in walked.iter().zip(raw["templates"].as_array().unwrap()) {
        assert_eq!(t.title, r["title"].as_str().unwrap());
        assert_eq!(t.template_type, r["templateType"].as_str().unwrap());
        assert_eq!(t.category, r["category"].as_str().unwrap());
        assert_eq!(t.text, r["text"].as_str().unwrap());
        assert_eq!(t.created_at, Some(wire_time(r["createdAt"].as_str().unwrap())));
    }
    for t in &walked {
        assert_eq!(
            &env.client
                .get_template(&TemplateId::new(t.uuid.to_string()))
                .await
                .unwrap(),
            t
        );
    }
    // Rename: the server answers under `templates`.
    let t = &walked[0];
    let renamed = env
        .client
        .rename_template(&TemplateId::new(t.uuid.to_string()), "renamed_by_contract")
        .await
        .unwrap();
    assert_eq!(renamed.title, "renamed_by_contract");
    assert_eq!(
        Template {
            title: t.title.clone(),
            ..renamed.clone()
        },
        *t
    );
    assert_eq!(
        env.raw_ok(&format!("/templates/{}", t.uuid)).await["template"]["title"],
        "renamed_by_contract"
    );
    let e = env
        .client
        .rename_template(&TemplateId::new(t.uuid.to_string()), "   ")
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["title"]);
    let e = env
        .client
        .get_template(&TemplateId::new("nope".to_string()))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains("nope")),
        "{e:?}"
    );

    // Channels: exactly the manifest's; the type filter narrows.
    let (_, channels) = collect(env.client.walk_channels(None)).await;
    let want: Vec<(String, String, String, bool)> = env
        .srv
        .manifest
        .channels
        .iter()
        .map(|c| (c.uuid.clone(), c.title.clone(), c.channel_type.clone(), c.main))
        .collect();
    let got: Vec<(String, String, String, bool)> = channels
        .iter()
        .map(|c| (c.uuid.clone(), c.title.clone(), c.channel_type.to_string(), c.main))
        .collect();
    assert_eq!(got, want);
    let tg = env.client.list_channels(None, Some("telegram")).await.unwrap();
    assert_eq!(tg.items.len(), 1);
    assert_eq!(tg.items[0].channel_type, "telegram");
    let renamed = env
        .client
        .rename_channel(&channels[1].uuid, "EU line ✨")
        .await
        .unwrap();
    assert_eq!(
        renamed,
        Channel {
            title: "EU line ✨".into(),
            ..channels[1].clone()
        }
    );
    let (_, again) = collect(env.client.walk_channels(None)).await;
    assert_eq!(again[1].title, "EU line ✨");
    let e = env.client.rename_channel("nope", "x").await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");

    // Funnels: `YYYY-MM-DD HH:MM:SS +ZZZZ` read as the right instant.
    let funnels = env.client.list_funnels().await.unwrap();
    let raw = env.raw_ok("/funnels").await;
    let raw = raw["funnels"].as_array().unwrap();
    assert_eq!(funnels.len(), raw.len());
    assert!(!funnels.is_empty());
    for (f, r) in funnels.iter().zip(raw) {
        let at = r["createdAt"].as_str().unwrap();
        assert!(!at.contains('T') && at.ends_with("+0000"), "{at}");
        assert_eq!(f.created_at, Some(wire_time(at)), "{at}");
        assert_eq!(
            (f.uuid.as_str(), f.name.as_str(), f.emoji.as_str()),
            (
                r["uuid"].as_str().unwrap(),
                r["name"].as_str().unwrap(),
                r["emoji"].as_str().unwrap()
            )
        );
        assert_eq!(f.position, r["position"].as_i64().unwrap());
    }
}

#[tokio::test]
async fn teams_members_and_plan() {
    let env = small(10).await;
    let m = &env.srv.manifest;
    let (_, teams) = collect(env.client.walk_teams()).await;
    let names: Vec<(&str, &str)> = teams.iter().map(|t| (t.uuid.as_str(), t.name.as_str())).collect();
    let want: Vec<(&str, &str)> = m.teams.iter().map(|t| (t.uuid.as_str(), t.name.as_str())).collect();
    assert_eq!(names, want);
    assert_eq!(teams.iter().filter(|t| t.default).count(), 1);
    for t in &teams {
        assert_eq!(&env.client.get_team(&t.uuid).await.unwrap(), t);
        let (_, members) = collect(env.client.walk_team_members(&t.uuid, None)).await;
        assert_eq!(Some(members.len() as i64), t.members, "{}", t.name);
        assert!(members.iter().all(|u| m.collaborators.contains(&u.email)));
        let (_, available) = collect(env.client.walk_team_members(&t.uuid, Some("available".into()))).await;
        let (_, away) = collect(env.client.walk_team_members(&t.uuid, Some("away".into()))).await;
        assert!(available.iter().all(|u| u.available == Some(true)));
        assert!(away.iter().all(|u| u.available == Some(false)));
        assert_eq!(available.len() + away.len(), members.len());
    }
    let e = env.client.get_team("nope").await.unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains("nope")),
        "{e:?}"
    );
    let e = env.client.team_members("nope", None, None).await.unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains("nope")),
        "{e:?}"
    );

    // The plan comes at top level.
    let raw = env.raw_ok("/plan").await;
    assert!(raw["plan"].is_string(), "{raw}");
    let plan = env.client.plan().await.unwrap();
    assert_eq!(plan.plan, raw["plan"].as_str().unwrap());
    assert_eq!(plan.active_users, raw["activeUsers"].as_i64().unwrap());
    assert_eq!(plan.licenses, raw["licenses"].as_i64().unwrap());
    assert_eq!(plan.included_channels, raw["includedChannels"].as_i64().unwrap());
    assert_eq!(plan.teams, teams);
}

/// What the server holds for a user, read from the team member lists.
async fn held_status(env: &Env, email: &str) -> (bool, Option<String>) {
    for t in &env.srv.manifest.teams {
        let v = env.raw_ok(&format!("/teams/{}/members", t.uuid)).await;
        if let Some(u) = v["users"].as_array().unwrap().iter().find(|u| u["email"] == email) {
            return (
                u["available"].as_bool().unwrap(),
                u["userCustomStatus"]["id"].as_str().map(str::to_string),
            );
        }
    }
    panic!("{email} is in no team");
}

#[tokio::test]
async fn custom_statuses_and_user_status() {
    let env = small(10).await;
    let m = env.srv.manifest.clone();
    let (_, statuses) = collect(env.client.walk_custom_statuses()).await;
    let got: Vec<(&str, &str)> = statuses.iter().map(|s| (s.id.as_str(), s.name.as_str())).collect();
    let want: Vec<(&str, &str)> = m
        .custom_statuses
        .iter()
        .map(|s| (s.id.as_str(), s.name.as_str()))
        .collect();
    assert_eq!(got, want);
    let raw = env.raw_ok(&format!("/custom_statuses/{}", statuses[0].id)).await;
    let at = raw["customStatus"]["createdAt"].as_str().unwrap();
    assert!(!at.contains('T') && at.ends_with("+0000"), "{at}");
    let one = env.client.get_custom_status(&statuses[0].id).await.unwrap();
    assert_eq!(one, statuses[0]);
    assert_eq!(one.created_at, Some(wire_time(at)));
    assert_eq!(
        one.updated_at,
        Some(wire_time(raw["customStatus"]["updatedAt"].as_str().unwrap()))
    );

    let made = env
        .client
        .create_custom_status(&CustomStatusBody {
            name: "Contract testing".into(),
            emoji: Some("🧪".into()),
        })
        .await
        .unwrap();
    assert_eq!((made.name.as_str(), made.emoji.as_str()), ("Contract testing", "🧪"));
    assert!(
        recent(made.created_at, 120) && made.created_at == made.updated_at,
        "{made:?}"
    );
    let edited = env
        .client
        .update_custom_status(
            &made.id,
            &CustomStatusBody {
                name: "Contract tested".into(),
                emoji: None,
            },
        )
        .await
        .unwrap();
    assert_eq!((edited.name.as_str(), edited.emoji.as_str()), ("Contract tested", "🧪"));
    assert_eq!(
        env.client.get_custom_status(&made.id).await.unwrap().name,
        "Contract tested"
    );
    let e = env
        .client
        .create_custom_status(&CustomStatusBody {
            name: " ".into(),
            emoji: None,
        })
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["name"]);

    // User status: available only, then a custom status set, kept, cleared.
    let user = &m.users[0];
    let (was_available, was_status) = held_status(&env, &user.email).await;
    let s = env
        .client
        .set_user_status(
            &user.uuid,
            &UserStatusUpdate {
                available: Some(!was_available),
                custom_status: CustomStatusChange::Keep,
            },
        )
        .await
        .unwrap();
    let appearance = s.appearance.unwrap();
    assert_eq!(appearance.available, !was_available);
    assert!(recent(appearance.last_updated_at, 60));
    assert_eq!(s.custom_status.and_then(|c| c.id), was_status);
    assert_eq!(
        held_status(&env, &user.email).await,
        (!was_available, was_status.clone())
    );

    let set = UserStatusUpdate {
        available: None,
        custom_status: CustomStatusChange::Set(made.id.clone()),
    };
    let s = env.client.set_user_status(&user.uuid, &set).await.unwrap();
    let cs = s.custom_status.unwrap();
    assert_eq!(
        (cs.id.as_deref(), cs.name.as_deref()),
        (Some(made.id.as_str()), Some("Contract tested"))
    );
    assert!(recent(cs.last_updated_at, 60));
    assert_eq!(
        held_status(&env, &user.email).await,
        (!was_available, Some(made.id.clone()))
    );

    let keep = UserStatusUpdate {
        available: Some(true),
        custom_status: CustomStatusChange::Keep,
    };
    let s = env.client.set_user_status(&user.uuid, &keep).await.unwrap();
    assert_eq!(s.custom_status.unwrap().id.as_deref(), Some(made.id.as_str()));
    assert_eq!(held_status(&env, &user.email).await, (true, Some(made.id.clone())));

    let clear = UserStatusUpdate {
        available: None,
        custom_status: CustomStatusChange::Clear,
    };
    let s = env.client.set_user_status(&user.uuid, &clear).await.unwrap();
    assert_eq!(s.custom_status.and_then(|c| c.id), None);
    assert_eq!(held_status(&env, &user.email).await, (true, None));

    let bad = UserStatusUpdate {
        available: Some(false),
        custom_status: CustomStatusChange::Set("nope".into()),
    };
    let e = env.client.set_user_status(&user.uuid, &bad).await.unwrap_err();
    assert_eq!(field_names(&e), vec!["custom_status_uuid"]);
    assert_eq!(
        held_status(&env, &user.email).await,
        (true, None),
        "a refused update changes nothing"
    );
    let e = env.client.set_user_status("nope", &keep).await.unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains("nope")),
        "{e:?}"
    );

    // Delete: gone, and the users wearing it lose it.
    env.client.set_user_status(&user.uuid, &set).await.unwrap();
    env.client.delete_custom_status(&made.id).await.unwrap();
    let e = env.client.get_custom_status(&made.id).await.unwrap_err();
    assert!(
        matches!(&e, ApiError::NotFound { what } if what.contains(&made.id)),
        "{e:?}"
    );
    assert_eq!(held_status(&env, &user.email).await, (true, None));
    let e = env.client.delete_custom_status(&made.id).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn webhook_event_log_with_each_filter() {
    let env = small(10).await;
    let everything = EventQuery::default();
    let (_, all) = collect(env.client.walk_webhook_events(everything.clone())).await;
    let raw = env.raw_ok("/webhooks/events?items=100").await;
    assert_eq!(all.len(), raw["webhook_events"].as_array().unwrap().len());
    assert!(all.len() > 20, "the log spans more than one page: {}", all.len());
    for (e, r) in all.iter().zip(raw["webhook_events"].as_array().unwrap()) {
        assert_eq!(e.event, r["event"].as_str().unwrap());
        assert_eq!(e.payload, r["payload"].as_str().unwrap());
        assert_eq!(e.success, r["success"].as_bool().unwrap());
        assert_eq!(e.created_at, Some(wire_time(r["createdAt"].as_str().unwrap())));
        assert_eq!(e.response.as_ref().and_then(|x| x.code), r["response"]["code"].as_i64());
    }
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));

    let q = |status: Option<&str>, subs: &[&str], items: Option<u32>| EventQuery {
        status: status.map(str::to_string),
        subscriptions: subs.iter().map(|s| s.to_string()).collect(),
        page: None,
        items,
    };
    let (_, ok) = collect(env.client.walk_webhook_events(q(Some("success"), &[], None))).await;
    let (_, failed) = collect(env.client.walk_webhook_events(q(Some("failed"), &[], None))).await;
    assert!(ok.iter().all(|e| e.success) && failed.iter().all(|e| !e.success));
    assert!(!ok.is_empty() && !failed.is_empty());
    assert_eq!(ok.len() + failed.len(), all.len());

    let kinds: HashSet<&str> = all.iter().map(|e| e.event.as_str()).collect();
    assert!(kinds.len() >= 2, "{kinds:?}");
    let kind = all[0].event.as_str();
    let (_, one_kind) = collect(env.client.walk_webhook_events(q(None, &[kind], None))).await;
    assert_eq!(one_kind.len(), all.iter().filter(|e| e.event == kind).count());
    assert!(one_kind.iter().all(|e| e.event == kind));
    let two: Vec<&str> = kinds.iter().take(2).copied().collect();
    let (_, two_kinds) = collect(env.client.walk_webhook_events(q(None, &two, None))).await;
    assert_eq!(
        two_kinds.len(),
        all.iter().filter(|e| two.contains(&e.event.as_str())).count()
    );
    let (_, both) = collect(env.client.walk_webhook_events(q(Some("failed"), &[kind], None))).await;
    assert_eq!(both.len(), all.iter().filter(|e| e.event == kind && !e.success).count());

    // `items` sets the page size; the walk still gives everything once.
    let page = env.client.webhook_events(&q(None, &[], Some(7))).await.unwrap();
    assert_eq!(page.items.len(), 7);
    assert_eq!(page.meta.pages, Some(all.len().div_ceil(7) as u32));
    let (pages, by7) = collect(env.client.walk_webhook_events(q(None, &[], Some(7)))).await;
    assert_eq!(pages, all.len().div_ceil(7));
    assert_eq!(by7, all);
    let e = env
        .client
        .webhook_events(&q(Some("sideways"), &[], None))
        .await
        .unwrap_err();
    assert_eq!(field_names(&e), vec!["status"]);
}
