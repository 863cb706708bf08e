//! The account overlay as the user meets it.

use crate::tui::form::FieldId;
use crossterm::event::KeyCode;

use crate::api::{ApiError, Channel, EventQuery, Meta, Page, Template, WebhookEvent};
use crate::tui::account::state::Scroll;
use crate::tui::account::{
    Account, AccountEffect, AccountForm, AccountMsg, AccountTab, RenameTarget, Renamed, visible_rows,
};
use crate::tui::effect::Effect;
use crate::tui::fixtures::{code, key, model_with, now};
use crate::tui::form::FormValue;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
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
    let before = m.list.view.selected;
    let fx = update(&mut m, key('A'));
    assert_eq!(acc(&m).tab, AccountTab::Templates);
    assert!(matches!(account_fx(&fx)[..], [AccountEffect::FetchTemplates { .. }]));
    assert!(m.catalog.templates.loading.is_some());
    // Esc: back to the inbox as it was.
    update(&mut m, code(KeyCode::Esc));
    assert!(m.account.is_none());
    assert!(m.overlay.is_none());
    assert_eq!(m.list.view.selected, before);
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
    let rows = visible_rows(m.width, m.height, m.status.current().is_some(), AccountTab::Templates);
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

mod records;
mod webhooks;
