//! Snapshots of each tab at 80x24 and 160x48, plain theme, fixed data with
//! hostile text.

use chrono::Duration;
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::api::{
    ApiError, Channel, Funnel, Meta, Page, Plan, Team, TeamMember, Template, WebhookEvent, WebhookResponse,
};
use crate::tui::account::{AccountEffect, AccountMsg};
use crate::tui::effect::Effect;
use crate::tui::fixtures::{code, key, model_with, now};
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::theme::Theme;
use crate::tui::update::update;
use crossterm::event::KeyCode;

const HOSTILE: &str = "\u{1b}[2Jwipe";

fn templates() -> Vec<Template> {
    let titles = [
        "welcome",
        HOSTILE,
        "promo 🎉 sale",
        "注文確認のお知らせ",
        "مرحبا بكم في متجرنا",
        "a very long template title that will not fit in the narrow column at all",
    ];
    titles
        .iter()
        .enumerate()
        .map(|(i, t)| Template {
            uuid: format!("t{i}"),
            title: t.to_string(),
            template_type: "text".into(),
            category: if i.is_multiple_of(2) { "MARKETING" } else { "UTILITY" }.into(),
            status: ["approved", "rejected", "pending"][i % 3].into(),
            text: format!("Hello {{{{1}}}} \u{1b}[31mred\u{1b}[0m 👋🏽 你好 مرحبا\nline two of template {i}, long enough to wrap somewhere on a narrow screen"),
            created_at: Some(now() - Duration::days(i as i64)),
        })
        .collect()
}

fn channels() -> Vec<Channel> {
    vec![
        Channel {
            uuid: "c0".into(),
            title: "Main line".into(),
            channel_type: "messaging_app".into(),
            main: true,
        },
        Channel {
            uuid: "c1".into(),
            title: format!("{HOSTILE} 🇯🇵 Tokyo 東京"),
            channel_type: "whatsapp".into(),
            main: false,
        },
        Channel {
            uuid: "c2".into(),
            title: "قناة".into(),
            channel_type: "telegram".into(),
            main: false,
        },
    ]
}

fn teams() -> Vec<Team> {
    vec![
        Team {
            uuid: "tm0".into(),
            name: "Support".into(),
            default: true,
            members: Some(3),
            ..Default::default()
        },
        Team {
            uuid: "tm1".into(),
            name: format!("VIP 💎 {HOSTILE}"),
            members: Some(12),
            ..Default::default()
        },
    ]
}

fn members() -> Vec<TeamMember> {
    vec![
        TeamMember {
            email: "alex@example.com".into(),
            name: "Alex Agent".into(),
            available: Some(true),
            user_custom_status: Some(crate::api::MemberStatus {
                name: "Lunch".into(),
                emoji: "🍜".into(),
                ..Default::default()
            }),
            ..Default::default()
        },
        TeamMember {
            email: "dana@example.com".into(),
            name: format!("דנה {HOSTILE}"),
            available: Some(false),
            ..Default::default()
        },
    ]
}

fn plan() -> Plan {
    Plan {
        plan: format!("Business {HOSTILE}"),
        included_channels: 5,
        licenses: 10,
        active_users: 6,
        teams: teams(),
    }
}

fn funnels() -> Vec<Funnel> {
    vec![
        Funnel {
            uuid: "f1".into(),
            name: "New lead".into(),
            emoji: "🌱".into(),
            position: 1,
            ..Default::default()
        },
        Funnel {
            uuid: "f2".into(),
            name: "成交 Won".into(),
            emoji: "🏆".into(),
            position: 2,
            ..Default::default()
        },
    ]
}

fn events() -> Vec<WebhookEvent> {
    (0..4)
        .map(|i| WebhookEvent {
            event: ["message_created", "contact_updated"][i % 2].into(),
            payload: "message_object".into(),
            success: i != 0,
            created_at: Some(now() - Duration::minutes(17 * i as i64)),
            response: Some(WebhookResponse {
                code: Some(if i == 0 { 500 } else { 200 }),
                body: serde_json::json!({"error": HOSTILE, "detail": {"note": "受信者 💥"}}),
                headers: serde_json::json!({"content-type": "application/json"}),
            }),
        })
        .collect()
}

fn answer(m: &mut Model, fx: Vec<Effect>) {
    for e in fx {
        let Effect::Account(e) = e else { continue };
        let msg = match e {
            AccountEffect::FetchTemplates { id } => AccountMsg::Templates {
                id,
                result: Ok(templates()),
            },
            AccountEffect::FetchChannels { id } => AccountMsg::Channels {
                id,
                result: Ok(channels()),
            },
            AccountEffect::FetchTeams { id } => AccountMsg::Teams {
                id,
                result: Ok(teams()),
            },
            AccountEffect::FetchTemplate { id, uuid } => AccountMsg::Template {
                id,
                result: templates()
                    .into_iter()
                    .find(|t| t.uuid == uuid)
                    .ok_or(ApiError::NotFound {
                        what: "template".into(),
                    }),
                uuid,
            },
            AccountEffect::FetchTeam { id, uuid } => AccountMsg::Team {
                id,
                result: teams()
                    .into_iter()
                    .find(|t| t.uuid == uuid)
                    .ok_or(ApiError::NotFound { what: "team".into() }),
                uuid,
            },
            AccountEffect::FetchMembers { id, team } => AccountMsg::Members {
                id,
                team,
                result: Ok(members()),
            },
            AccountEffect::FetchPlan { id } => AccountMsg::Plan { id, result: Ok(plan()) },
            AccountEffect::FetchFunnels { id } => AccountMsg::Funnels {
                id,
                result: Ok(funnels()),
            },
            AccountEffect::FetchEvents { id, query } => AccountMsg::Events {
                id,
                query,
                result: Ok(Page {
                    items: events(),
                    meta: Meta {
                        page: Some(2),
                        pages: Some(7),
                        next: None,
                    },
                }),
            },
            AccountEffect::Rename { .. } => continue,
        };
        let more = update(m, Msg::Account(msg));
        answer(m, more);
    }
}

fn press(m: &mut Model, c: char) {
    let fx = update(m, key(c));
    answer(m, fx);
}

fn draw(m: &Model) -> String {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    let text = format!("{}", t.backend());
    assert!(!text.contains('\u{1b}'), "raw ESC reached the screen");
    let (buf, at) = (t.backend().buffer(), format!("at {}x{}", m.width, m.height));
    use crate::tui::view::tests::grid;
    grid::panic_on(
        if m.is_wide() {
            grid::nothing_hidden(buf)
        } else {
            grid::intact(buf)
        },
        buf,
        &at,
    );
    text
}

#[test]
fn every_tab_at_both_sizes() {
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = model_with(3, w, h);
        press(&mut m, 'A');
        press(&mut m, 'j');
        assert_snapshot!(format!("account_templates_{w}x{h}"), draw(&m));
        // Enter: the record from GET /templates/:uuid.
        let fx = update(&mut m, code(KeyCode::Enter));
        answer(&mut m, fx);
        assert_snapshot!(format!("account_template_record_{w}x{h}"), draw(&m));
        press(&mut m, '2');
        press(&mut m, 'j');
        assert_snapshot!(format!("account_channels_{w}x{h}"), draw(&m));
        press(&mut m, '3');
        press(&mut m, 'm');
        assert_snapshot!(format!("account_teams_{w}x{h}"), draw(&m));
        press(&mut m, '4');
        assert_snapshot!(format!("account_plan_{w}x{h}"), draw(&m));
        press(&mut m, '5');
        assert_snapshot!(format!("account_webhooks_{w}x{h}"), draw(&m));
        // s: the event kinds and page size; applied, the bar names them.
        press(&mut m, 's');
        assert_snapshot!(format!("account_event_filter_{w}x{h}"), draw(&m));
        update(&mut m, code(KeyCode::Char(' ')));
        update(&mut m, code(KeyCode::Tab));
        for c in "50".chars() {
            update(&mut m, key(c));
        }
        let fx = update(&mut m, code(KeyCode::Enter));
        answer(&mut m, fx);
        let text = draw(&m);
        assert!(text.contains("message_created · 50/page"), "{text}");
        press(&mut m, 'e');
        press(&mut m, '1');
        press(&mut m, 'e');
        assert_snapshot!(format!("account_rename_{w}x{h}"), draw(&m));
    }
}

#[test]
fn loading_and_not_offered() {
    let mut m = model_with(3, 80, 24);
    update(&mut m, key('A'));
    assert_snapshot!("account_loading_80x24", draw(&m));
    let fx = update(&mut m, key('2'));
    let [Effect::Account(AccountEffect::FetchChannels { id })] = fx[..] else {
        panic!("{fx:?}")
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Channels {
            id,
            result: Err(ApiError::NotOffered {
                what: "a channel list".into(),
            }),
        }),
    );
    let text = draw(&m);
    assert!(text.contains("this server does not offer a channel list"), "{text}");
    assert_snapshot!("account_not_offered_80x24", text);
}
