//! The account overlay as the user meets it.

use crate::tui::form::FieldId;
use crossterm::event::KeyCode;

use super::*;
use crate::api::{ApiError, Channel, EventQuery, Meta, Page, Template, WebhookEvent};
use crate::tui::fixtures::{code, key, model_with, now};
use crate::tui::form::FormValue;
use crate::tui::model::account::{AccountForm, RenameTarget};
use crate::tui::msg::Msg;
use crate::tui::msg::account::{AccountMsg, Renamed};
use crate::tui::update::update;

fn account_fx(fx: &[Effect]) -> Vec<AccountEffect> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Account(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn template(i: usize) -> Template {
    Template {
        uuid: format!("t{i}"),
        title: format!("Template {i}"),
        template_type: "text".into(),
        category: "MARKETING".into(),
        status: if i.is_multiple_of(2) { "approved" } else { "rejected" }.into(),
        text: format!("Hello {{{{1}}}}, number {i}"),
        created_at: Some(now()),
    }
}

fn open_with_templates(n: usize) -> Model {
    let mut m = model_with(3, 80, 24);
    let fx = update(&mut m, key('A'));
    let [AccountEffect::FetchTemplates { id }] = account_fx(&fx)[..] else {
        panic!("{fx:?}")
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id,
            result: Ok((0..n).map(template).collect()),
        }),
    );
    m
}

fn acc(m: &Model) -> &Account {
    m.account.as_ref().expect("the overlay is open")
}

#[test]
fn a_opens_on_templates_and_fetches_them() {
    let mut m = model_with(3, 80, 24);
    let before = m.list.selected;
    let fx = update(&mut m, key('A'));
    assert_eq!(acc(&m).tab, AccountTab::Templates);
    assert!(matches!(account_fx(&fx)[..], [AccountEffect::FetchTemplates { .. }]));
    assert!(m.catalog.templates.loading.is_some());
    // Esc: back to the inbox as it was.
    update(&mut m, code(KeyCode::Esc));
    assert!(m.account.is_none());
    assert!(m.overlay.is_none());
    assert_eq!(m.list.selected, before);
    assert!(!m.quit);
}

#[test]
fn the_palette_names_account() {
    let mut m = model_with(3, 80, 24);
    update(&mut m, key(':'));
    for c in "account".chars() {
        update(&mut m, key(c));
    }
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(m.account.is_some());
    assert!(matches!(account_fx(&fx)[..], [AccountEffect::FetchTemplates { .. }]));
}

#[test]
fn switching_tabs_fetches_each_once() {
    let mut m = open_with_templates(3);
    let mut seen = Vec::new();
    for k in ['2', '3', '4', '5'] {
        seen.extend(account_fx(&update(&mut m, key(k))));
    }
    assert!(
        matches!(
            seen[..],
            [
                AccountEffect::FetchChannels { .. },
                AccountEffect::FetchTeams { .. },
                AccountEffect::FetchPlan { .. },
                AccountEffect::FetchFunnels { .. },
                AccountEffect::FetchEvents { .. },
            ]
        ),
        "{seen:?}"
    );
    // Around again with Tab and Shift-Tab: nothing new (loading or loaded).
    for _ in 0..6 {
        assert!(account_fx(&update(&mut m, code(KeyCode::Tab))).is_empty());
    }
    assert!(account_fx(&update(&mut m, code(KeyCode::BackTab))).is_empty());
    // `r` refetches.
    update(&mut m, key('1'));
    assert!(matches!(
        account_fx(&update(&mut m, key('r')))[..],
        [AccountEffect::FetchTemplates { .. }]
    ));
}

#[test]
fn stale_results_are_dropped() {
    let mut m = model_with(3, 80, 24);
    let fx = update(&mut m, key('A'));
    let [AccountEffect::FetchTemplates { id: old }] = account_fx(&fx)[..] else {
        panic!()
    };
    let fx = update(&mut m, key('r'));
    let [AccountEffect::FetchTemplates { id: new }] = account_fx(&fx)[..] else {
        panic!()
    };
    assert_ne!(old, new);
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id: old,
            result: Ok(vec![template(9)]),
        }),
    );
    assert!(m.catalog.templates.data.is_none(), "the old answer is dropped");
    assert_eq!(m.catalog.templates.loading, Some(new));
    update(
        &mut m,
        Msg::Account(AccountMsg::Templates {
            id: new,
            result: Ok(vec![template(1), template(2)]),
        }),
    );
    assert_eq!(m.catalog.templates.data.as_ref().unwrap().len(), 2);
    assert!(m.catalog.templates.loading.is_none());
}

#[test]
fn lists_move_and_stay_in_range() {
    let mut m = open_with_templates(40);
    update(&mut m, key('j'));
    update(&mut m, code(KeyCode::Down));
    assert_eq!(acc(&m).templates_cursor.selected, 2);
    update(&mut m, key('G'));
    let c = acc(&m).templates_cursor;
    assert_eq!(c.selected, 39);
    let rows = visible_rows(&m, AccountTab::Templates);
    assert_eq!(c.offset, 40 - rows, "the selection stays on screen");
    update(&mut m, key('j'));
    assert_eq!(acc(&m).templates_cursor.selected, 39);
    update(&mut m, key('g'));
    assert_eq!(acc(&m).templates_cursor, Scroll::default());
    update(&mut m, key('k'));
    assert_eq!(acc(&m).templates_cursor.selected, 0);
}

fn submit_rename(m: &mut Model, title: &str) -> (u64, String) {
    update(m, key('e'));
    assert!(acc(m).rename().is_some());
    update(
        m,
        Msg::Key(crossterm::event::KeyEvent::new(
            KeyCode::Char('u'),
            crossterm::event::KeyModifiers::CONTROL,
        )),
    );
    // Clear whatever the line editor kept, then type.
    for _ in 0..40 {
        update(m, code(KeyCode::Backspace));
    }
    for c in title.chars() {
        update(m, key(c));
    }
    let fx = update(m, code(KeyCode::Enter));
    match &account_fx(&fx)[..] {
        [
            AccountEffect::Rename {
                id,
                target,
                uuid,
                title: t,
            },
        ] => {
            assert_eq!(*target, RenameTarget::Template);
            assert_eq!(t, title);
            (*id, uuid.clone())
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn rename_prefills_and_success_updates_the_row() {
    let mut m = open_with_templates(3);
    update(&mut m, key('j'));
    update(&mut m, key('e'));
    let form = &acc(&m).rename().unwrap().form;
    assert_eq!(form.value(&FieldId::Title), Some(FormValue::Text("Template 1".into())));
    update(&mut m, code(KeyCode::Esc));
    assert!(acc(&m).rename().is_none(), "Esc closes the form, not the overlay");

    let (id, uuid) = submit_rename(&mut m, "Welcome");
    assert_eq!(uuid, "t1");
    assert!(acc(&m).rename().unwrap().form.is_busy());
    let answer = Template {
        uuid: "t1".into(),
        title: "Welcome".into(),
        ..Default::default()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Renamed {
            id,
            target: RenameTarget::Template,
            uuid,
            title: "Welcome".into(),
            result: Ok(Renamed::Template(answer)),
        }),
    );
    let a = acc(&m);
    assert!(a.rename().is_none());
    let t = &m.catalog.templates.data.as_ref().unwrap()[1];
    assert_eq!(t.title, "Welcome");
    assert_eq!(t.status, "rejected", "the rest of the row is kept");
    assert_eq!(m.status.current().unwrap().text, "template renamed");
}

#[test]
fn rename_failure_keeps_the_typed_title_and_shows_the_error() {
    let mut m = open_with_templates(3);
    let (id, uuid) = submit_rename(&mut m, "Bad");
    let e = ApiError::Validation {
        message: "title is taken".into(),
        fields: Default::default(),
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Renamed {
            id,
            target: RenameTarget::Template,
            uuid,
            title: "Bad".into(),
            result: Err(e),
        }),
    );
    let r = acc(&m).rename().expect("the form stays open");
    assert_eq!(r.form.value(&FieldId::Title), Some(FormValue::Text("Bad".into())));
    assert!(r.form.error().unwrap().contains("title is taken"));
    assert!(!r.form.is_busy());
    assert_eq!(m.catalog.templates.data.as_ref().unwrap()[0].title, "Template 0");
    // Enter again retries.
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(matches!(account_fx(&fx)[..], [AccountEffect::Rename { .. }]));
}

#[test]
fn channel_rename_and_unchanged_title() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('2'));
    let [AccountEffect::FetchChannels { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    let ch = Channel {
        uuid: "c1".into(),
        title: "Main line".into(),
        channel_type: "whatsapp".into(),
        main: true,
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Channels {
            id,
            result: Ok(vec![ch]),
        }),
    );
    update(&mut m, key('e'));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(account_fx(&fx).is_empty(), "unchanged: no request");
    assert!(acc(&m).rename().is_none());
    update(&mut m, key('e'));
    update(&mut m, key('!'));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        matches!(&account_fx(&fx)[..], [AccountEffect::Rename { target: RenameTarget::Channel, title, .. }] if title == "Main line!")
    );
}

fn events(n: usize) -> Vec<WebhookEvent> {
    (0..n)
        .map(|i| WebhookEvent {
            event: "message_created".into(),
            payload: "message_object".into(),
            success: i % 2 == 0,
            created_at: Some(now()),
            ..Default::default()
        })
        .collect()
}

fn events_page(m: &mut Model, fx: &[Effect], page: u32, pages: u32) -> EventQuery {
    let [AccountEffect::FetchEvents { id, ref query }] = account_fx(fx)[..] else {
        panic!("{fx:?}")
    };
    let query = query.clone();
    update(
        m,
        Msg::Account(AccountMsg::Events {
            id,
            query: query.clone(),
            result: Ok(Page {
                items: events(3),
                meta: Meta {
                    page: Some(page),
                    pages: Some(pages),
                    next: None,
                },
            }),
        }),
    );
    query
}

#[test]
fn webhook_filter_cycles_and_pages_follow_meta() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('5'));
    let q = events_page(&mut m, &fx, 1, 3);
    assert_eq!(
        q,
        EventQuery {
            page: Some(1),
            ..Default::default()
        }
    );
    // p on page 1: nothing.
    assert!(account_fx(&update(&mut m, key('p'))).is_empty());
    let fx = update(&mut m, key('n'));
    let q = events_page(&mut m, &fx, 2, 3);
    assert_eq!(q.page, Some(2));
    assert_eq!(acc(&m).webhooks.page, 2);
    let fx = update(&mut m, key('n'));
    events_page(&mut m, &fx, 3, 3);
    assert!(account_fx(&update(&mut m, key('n'))).is_empty(), "no page 4 of 3");
    let fx = update(&mut m, key('p'));
    assert_eq!(events_page(&mut m, &fx, 2, 3).page, Some(2));

    // f: all → failed → success → all, each back to page 1.
    for want in [Some("failed"), Some("success"), None] {
        let fx = update(&mut m, key('f'));
        let q = events_page(&mut m, &fx, 1, 2);
        assert_eq!(
            q,
            EventQuery {
                status: want.map(str::to_string),
                page: Some(1),
                ..Default::default()
            }
        );
        assert_eq!(acc(&m).webhooks.pages, Some(2));
    }
}

#[test]
fn not_offered_shows_in_the_tab() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Teams {
            id,
            result: Err(ApiError::NotOffered {
                what: "a team list".into(),
            }),
        }),
    );
    assert_eq!(
        m.catalog.teams.error.as_deref(),
        Some("this server does not offer a team list")
    );
    assert!(m.catalog.teams.loading.is_none());
    // Keys still work; Enter with no teams does nothing.
    assert!(account_fx(&update(&mut m, code(KeyCode::Enter))).is_empty());
    update(&mut m, key('j'));
}

#[test]
fn members_of_the_selected_team() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    let teams = vec![
        crate::api::Team {
            uuid: "tm1".into(),
            name: "Sales".into(),
            ..Default::default()
        },
        crate::api::Team {
            uuid: "tm2".into(),
            name: "Support".into(),
            ..Default::default()
        },
    ];
    update(&mut m, Msg::Account(AccountMsg::Teams { id, result: Ok(teams) }));
    update(&mut m, key('j'));
    let fx = update(&mut m, key('m'));
    let [
        AccountEffect::FetchTeam { .. },
        AccountEffect::FetchMembers { id, ref team },
    ] = account_fx(&fx)[..]
    else {
        panic!("{fx:?}")
    };
    assert_eq!(team, "tm2");
    // An answer for another team is dropped.
    update(
        &mut m,
        Msg::Account(AccountMsg::Members {
            id,
            team: "tm1".into(),
            result: Ok(vec![]),
        }),
    );
    assert!(acc(&m).members.list.data.is_none());
    update(
        &mut m,
        Msg::Account(AccountMsg::Members {
            id,
            team: "tm2".into(),
            result: Ok(vec![Default::default()]),
        }),
    );
    assert_eq!(acc(&m).members.list.data.as_ref().unwrap().len(), 1);
}

#[test]
fn enter_on_a_template_reads_its_record() {
    let mut m = open_with_templates(3);
    update(&mut m, key('j'));
    let fx = update(&mut m, code(KeyCode::Enter));
    let [AccountEffect::FetchTemplate { id, ref uuid }] = account_fx(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(uuid, "t1");
    let full = Template {
        text: "The whole text, longer than the list's".into(),
        ..template(1)
    };
    // An answer for a template no longer opened is dropped.
    update(
        &mut m,
        Msg::Account(AccountMsg::Template {
            id,
            uuid: "t0".into(),
            result: Ok(template(0)),
        }),
    );
    assert!(acc(&m).template.as_ref().unwrap().remote.data.is_none());
    update(
        &mut m,
        Msg::Account(AccountMsg::Template {
            id,
            uuid: "t1".into(),
            result: Ok(full.clone()),
        }),
    );
    let opened = acc(&m).template.as_ref().unwrap();
    assert_eq!(opened.remote.data.as_ref(), Some(&full));
    // `r` reads the list and the opened record again.
    let fx = update(&mut m, key('r'));
    assert!(
        matches!(
            account_fx(&fx)[..],
            [
                AccountEffect::FetchTemplates { .. },
                AccountEffect::FetchTemplate { .. }
            ]
        ),
        "{fx:?}"
    );
}

#[test]
fn enter_on_a_team_reads_its_record_and_members() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    let sales = crate::api::Team {
        uuid: "tm1".into(),
        name: "Sales".into(),
        ..Default::default()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Teams {
            id,
            result: Ok(vec![sales.clone()]),
        }),
    );
    let fx = update(&mut m, code(KeyCode::Enter));
    let [
        AccountEffect::FetchTeam { id, ref uuid },
        AccountEffect::FetchMembers { ref team, .. },
    ] = account_fx(&fx)[..]
    else {
        panic!("{fx:?}")
    };
    assert_eq!((uuid.as_str(), team.as_str()), ("tm1", "tm1"));
    let full = crate::api::Team {
        members: Some(4),
        default: true,
        ..sales
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Team {
            id,
            uuid: "tm1".into(),
            result: Ok(full.clone()),
        }),
    );
    assert_eq!(acc(&m).members.detail.data.as_ref(), Some(&full));
}

fn type_into(m: &mut Model, s: &str) {
    for c in s.chars() {
        update(m, key(c));
    }
}

#[test]
fn webhook_log_filters_by_event_kinds_and_page_size() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('5'));
    events_page(&mut m, &fx, 2, 3);
    update(&mut m, key('s'));
    assert!(matches!(acc(&m).form, Some(AccountForm::EventFilter(_))));
    // Tick the first two kinds, then 25 per page.
    update(&mut m, code(KeyCode::Char(' ')));
    update(&mut m, code(KeyCode::Down));
    update(&mut m, code(KeyCode::Char(' ')));
    update(&mut m, code(KeyCode::Tab));
    type_into(&mut m, "250");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(account_fx(&fx).is_empty(), "250 is refused: {fx:?}");
    let Some(AccountForm::EventFilter(form)) = &acc(&m).form else {
        panic!("the form stays open")
    };
    assert!(form.error().unwrap().contains("1 to 100"), "{:?}", form.error());
    update(&mut m, code(KeyCode::Backspace));
    let fx = update(&mut m, code(KeyCode::Enter));
    let q = events_page(&mut m, &fx, 1, 1);
    assert_eq!(
        q,
        EventQuery {
            subscriptions: vec!["message_created".into(), "message_status_updated".into()],
            page: Some(1),
            items: Some(25),
            ..Default::default()
        },
        "from the first page, with both filters"
    );
    assert!(acc(&m).form.is_none());
    // The status filter keeps the kinds and the size.
    let fx = update(&mut m, key('f'));
    let q = events_page(&mut m, &fx, 1, 1);
    assert_eq!(
        (q.status.as_deref(), q.items, q.subscriptions.len()),
        (Some("failed"), Some(25), 2)
    );
    // Unticking everything and clearing the size: every kind, default size.
    update(&mut m, key('s'));
    update(&mut m, code(KeyCode::Char(' ')));
    update(&mut m, code(KeyCode::Down));
    update(&mut m, code(KeyCode::Char(' ')));
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Backspace));
    update(&mut m, code(KeyCode::Backspace));
    let fx = update(&mut m, code(KeyCode::Enter));
    let q = events_page(&mut m, &fx, 1, 1);
    assert_eq!((q.items, q.subscriptions.len()), (None, 0));
}
