//! The details pane, its bot and my status, through the root's update.

use crossterm::event::KeyCode;

use crate::api::{ApiError, BotAction, CustomStatus, CustomStatusChange, UserStatus};
use crate::tui::details::{DetailsEffect, DetailsMsg};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::form::FieldId;
use crate::tui::model::{Model, Overlay};
use crate::tui::msg::Msg;
use crate::tui::update::tests::*;
use crate::tui::update::{startup, update};

#[test]
fn bot_toggles_and_reports() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let id = m.details.bot.loading.unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::BotLoaded {
            id,
            uuid: uuid.clone(),
            result: Ok(bot(true)),
        }),
    );
    assert_eq!(m.list.bots.get(&uuid), Some(&true));
    let fx = update(&mut m, key('b'));
    let (id, action) = fx
        .iter()
        .find_map(|e| {
            if let Effect::Details(DetailsEffect::SetBot { id, action, .. }) = e {
                Some((*id, *action))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(action, BotAction::End);
    update(
        &mut m,
        Msg::Details(DetailsMsg::BotSet {
            id,
            uuid: uuid.clone(),
            result: Ok(bot(false)),
        }),
    );
    assert!(!m.details.bot.bot.as_ref().unwrap().is_running());
    assert!(m.status.current().unwrap().text.contains("bot stopped"));
    let fx = update(&mut m, key('b'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::Details(DetailsEffect::SetBot { id, .. }) = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::BotSet {
            id,
            uuid,
            result: Err(ApiError::Rejected {
                status: 409,
                message: "no bot".into(),
            }),
        }),
    );
    assert!(m.status.current().unwrap().text.contains("no bot"));
    assert!(m.details.bot.pending.is_none());
}

#[test]
fn availability_toggles_optimistically_and_rolls_back() {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('v'));
    let (id, update_body) = fx
        .iter()
        .find_map(|e| {
            if let Effect::Details(DetailsEffect::SetUserStatus { id, update, .. }) = e {
                Some((*id, update.clone()))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(update_body.available, Some(true));
    assert_eq!(m.details.me.available, Some(true));
    update(
        &mut m,
        Msg::Details(DetailsMsg::UserStatusSet {
            id,
            result: Err(ApiError::Transport("down".into())),
        }),
    );
    assert_eq!(m.details.me.available, None, "rolled back");
    let fx = update(&mut m, key('v'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::Details(DetailsEffect::SetUserStatus { id, .. }) = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    let status: UserStatus =
        serde_json::from_str(r#"{"appearance":{"available":true},"custom_status":{"id":"cs1","name":"Lunch"}}"#)
            .unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::UserStatusSet { id, result: Ok(status) }),
    );
    assert_eq!(m.details.me.available, Some(true));
    assert_eq!(m.details.me.custom_status.as_ref().unwrap().1, "Lunch");
}

#[test]
fn availability_without_a_user_shows_the_hint() {
    let mut m = model_with(20, 160, 48);
    m.details.me.user = None;
    assert!(update(&mut m, key('v')).is_empty());
    assert!(m.status.current().unwrap().text.contains("user_uuid"));
    update(&mut m, key('s'));
    assert!(m.overlay.is_none());
}

#[test]
fn custom_status_picker_sets_and_clears() {
    let mut m = model_with(20, 160, 48);
    update(
        &mut m,
        Msg::Details(DetailsMsg::CustomStatusesLoaded(Err(ApiError::NotOffered {
            what: "custom statuses".into(),
        }))),
    );
    update(&mut m, key('s'));
    assert!(m.overlay.is_none());
    assert!(
        m.status
            .current()
            .unwrap()
            .text
            .contains("does not offer custom statuses")
    );
    let cs = CustomStatus {
        id: "cs1".into(),
        name: "Lunch".into(),
        emoji: "🍔".into(),
        ..Default::default()
    };
    update(&mut m, Msg::Details(DetailsMsg::CustomStatusesLoaded(Ok(vec![cs]))));
    update(&mut m, key('s'));
    assert!(matches!(m.overlay, Some(Overlay::CustomStatus(_))));
    type_text(&mut m, "lunch");
    let fx = update(&mut m, code(KeyCode::Enter));
    let body = fx.iter().find_map(|e| {
        if let Effect::Details(DetailsEffect::SetUserStatus { update, .. }) = e {
            Some(update.clone())
        } else {
            None
        }
    });
    assert_eq!(body.unwrap().custom_status, CustomStatusChange::Set("cs1".into()));
    let id = m.details.me.pending.unwrap();
    let status: UserStatus = serde_json::from_str(r#"{"custom_status":{"id":"cs1","name":"Lunch"}}"#).unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::UserStatusSet { id, result: Ok(status) }),
    );
    assert_eq!(m.status.current().unwrap().text, "custom status: Lunch");
}

#[test]
fn copy_link_writes_osc52_and_says_so() {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('y'));
    assert!(fx.contains(&Effect::CopyToClipboard(contact(0).conversation_href.unwrap())));
    assert!(m.status.current().unwrap().text.contains("copied"));
}

#[test]
fn my_status_is_read_from_team_members_when_my_email_is_known() {
    let mut m = model_with(5, 160, 48);
    m.details.me.email = Some("me@example.test".into());
    let me: crate::api::TeamMember = serde_json::from_str(
        r#"{"email":"me@example.test","name":"Me","available":false,"userCustomStatus":{"id":"cs9","name":"Lunch"}}"#,
    )
    .unwrap();
    let other: crate::api::TeamMember =
        serde_json::from_str(r#"{"email":"x@example.test","name":"X","available":true}"#).unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::TeamMembersLoaded {
            result: Ok(vec![other, me]),
        }),
    );
    assert_eq!(m.details.me.available, Some(false));
    assert_eq!(m.details.me.custom_status, Some(("cs9".into(), "Lunch".into())));
    assert!(m.known.collaborators.contains(&"x@example.test".to_string()));
}

#[test]
fn funnels_are_fetched_at_start_and_a_failure_leaves_short_uuids() {
    use crate::tui::account::AccountMsg;
    let mut m = empty_model(160, 48);
    let fx = startup(&mut m);
    let id = catalog_fetch(&fx, crate::tui::model::catalog::Part::Funnels);
    update(
        &mut m,
        Msg::Account(AccountMsg::Funnels {
            id,
            result: Err(ApiError::Transport("refused".into())),
        }),
    );
    assert_eq!(m.known.funnel_label("3f2a9c1b-7d4e-4a51"), "3f2a9c1b");
    let f = crate::api::Funnel {
        uuid: "3f2a9c1b-7d4e-4a51".into(),
        name: "Onboarding".into(),
        emoji: "🚀".into(),
        ..Default::default()
    };
    // The account overlay's `r` on the plan tab fetches them again.
    update(&mut m, key('A'));
    update(&mut m, key('4'));
    let fx = update(&mut m, key('r'));
    let id = catalog_fetch(&fx, crate::tui::model::catalog::Part::Funnels);
    update(
        &mut m,
        Msg::Account(AccountMsg::Funnels {
            id,
            result: Ok(vec![f]),
        }),
    );
    assert_eq!(m.known.funnel_label("3f2a9c1b-7d4e-4a51"), "🚀 Onboarding");
}

fn new_contact_form_of(m: &mut Model) -> crate::tui::form::Form {
    update(m, key('N'));
    match m.overlay.take() {
        Some(Overlay::Form { form, .. }) => form,
        other => panic!("{other:?}"),
    }
}

#[test]
fn new_contact_offers_the_channels_main_first_or_none_when_not_offered() {
    use crate::api::Channel;
    use crate::tui::account::AccountMsg;
    use crate::tui::form::FormValue;
    use crate::tui::model::catalog::Part;
    let mut m = model_with(20, 160, 48);
    let id = catalog_fetch(&startup(&mut m), Part::Channels);
    let ch = |uuid: &str, title: &str, main: bool| Channel {
        uuid: uuid.into(),
        title: title.into(),
        channel_type: "messaging_app".into(),
        main,
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Channels {
            id,
            result: Ok(vec![ch("c2", "Sales line", false), ch("c1", "Main line", true)]),
        }),
    );
    let form = new_contact_form_of(&mut m);
    assert_eq!(
        form.value(&FieldId::Channel),
        Some(FormValue::One(Some("Main line (messaging_app, main)".into())))
    );
    assert_eq!(form.value(&FieldId::Bot), Some(FormValue::One(None)));
    let mut m = model_with(20, 160, 48);
    let id = catalog_fetch(&startup(&mut m), Part::Channels);
    update(
        &mut m,
        Msg::Account(AccountMsg::Channels {
            id,
            result: Err(ApiError::NotOffered {
                what: "a channel list".into(),
            }),
        }),
    );
    let form = new_contact_form_of(&mut m);
    assert_eq!(form.value(&FieldId::Channel), None);
    assert!(form.value(&FieldId::Bot).is_some(), "the bot choice stays");
}

#[test]
fn the_assign_picker_shows_names_with_emails_and_assigns_by_email() {
    let mut m = model_with(5, 160, 48);
    let member: crate::api::TeamMember =
        serde_json::from_str(r#"{"email":"dana@frontdesk.example","name":"Dana Silva","available":true}"#).unwrap();
    let nameless: crate::api::TeamMember = serde_json::from_str(r#"{"email":"bo@frontdesk.example"}"#).unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::TeamMembersLoaded {
            result: Ok(vec![member, nameless]),
        }),
    );
    // Contact 1 is unassigned; `a` offers the members.
    update(&mut m, key('j'));
    update(&mut m, key('a'));
    let screen = format!("{}", crate::tui::view::tests::draw(&m).backend());
    assert!(screen.contains("Dana Silva <dana@frontdesk.example>"), "{screen}");
    assert!(screen.contains("bo@frontdesk.example"), "{screen}");
    // Down to Dana's line (after "(unassigned)" and bo, by email).
    let mut picked = None;
    for _ in 0..4 {
        update(&mut m, code(KeyCode::Down));
        if let Some(Overlay::Form { form, .. }) = &m.overlay
            && let Some(crate::tui::form::FormValue::One(Some(choice))) = form.value(&FieldId::AssignedUser)
            && choice.starts_with("Dana")
        {
            picked = Some(choice);
            break;
        }
    }
    // With her availability and load (issue 36).
    assert_eq!(
        picked.as_deref(),
        Some("Dana Silva <dana@frontdesk.example> · ● available · 0 open")
    );
    let (_, _, _, patch) = patch_of(&submit(&mut m));
    assert_eq!(patch.assigned_user.as_deref(), Some("dana@frontdesk.example"));
}

#[test]
fn the_assign_picker_starts_on_the_assignee_by_its_name() {
    let mut m = model_with(5, 160, 48);
    let member: crate::api::TeamMember =
        serde_json::from_str(r#"{"email":"agent@example.test","name":"Agent Smith"}"#).unwrap();
    update(
        &mut m,
        Msg::Details(DetailsMsg::TeamMembersLoaded {
            result: Ok(vec![member]),
        }),
    );
    // Contact 0 is assigned to agent@example.test: saved as is, by email.
    update(&mut m, key('a'));
    let (_, _, _, patch) = patch_of(&submit(&mut m));
    assert_eq!(patch.assigned_user.as_deref(), Some("agent@example.test"));
}
