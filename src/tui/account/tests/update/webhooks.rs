//! The webhook log: pages, the status filter, event kinds and page size.

use crossterm::event::KeyCode;

use super::*;

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
