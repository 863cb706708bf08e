//! A message sent here is the agent's own everywhere: its row is not
//! marked new (nor does it ring) when the sync brings it back, and the
//! row's preview and waiting state follow the send at once.

use chrono::Duration;

use crate::api::{DeliveryStatus, SentMessage};
use crate::index::{Changes, Preview, Who};
use crate::tui::compose::{ComposeEffect, ComposeMsg};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::msg::index::IndexMsg;
use crate::tui::update::tests::*;
use crate::tui::update::update;

/// Replies `text` to the selected contact; the server accepts it.
fn send_ok(m: &mut Model, text: &str) -> String {
    let uuid = m.list.selected_uuid().unwrap();
    update(m, key('R'));
    type_text(m, text);
    let id = submit(m)
        .iter()
        .find_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("a send");
    update(
        m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Ok(SentMessage {
                uuid: "msg-1".into(),
                status: DeliveryStatus::Enqueued,
            }),
        }),
    );
    update(m, code(crossterm::event::KeyCode::Esc));
    uuid
}

#[test]
fn the_sync_bringing_back_our_message_does_not_mark_the_row_new_nor_ring() {
    let mut m = indexed_model(10, 160, 48);
    m.session.bell = true;
    let uuid = send_ok(&mut m, "On its way");
    update(&mut m, key('j')); // the agent moves on
    assert_ne!(m.list.selected_uuid().as_deref(), Some(uuid.as_str()));
    let mut c = contact(0);
    c.activity_at = Some(now() + Duration::seconds(1));
    let fx = update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: vec![],
        })),
    );
    assert!(!m.list.get(&uuid).unwrap().has_new(), "our own message is not new");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Bell)), "nor does it ring");
    // The customer's answer after it is new again.
    let mut c = contact(0);
    c.activity_at = Some(now() + Duration::seconds(30));
    let fx = update(
        &mut m,
        Msg::Index(IndexMsg::Changed(Changes {
            upserted: vec![c],
            removed: vec![],
        })),
    );
    assert!(m.list.get(&uuid).unwrap().has_new());
    assert!(fx.iter().any(|e| matches!(e, Effect::Bell)));
}

#[test]
fn a_refresh_of_the_first_page_bringing_back_our_message_does_not_mark_it_new() {
    let mut c = contact(0);
    c.activity_at = Some(now() + Duration::seconds(1));
    let mut m = model_with(10, 160, 48);
    let uuid = send_ok(&mut m, "On its way");
    update(&mut m, key('j'));
    refreshed(&mut m, vec![c], None);
    assert!(!m.list.get(&uuid).unwrap().has_new(), "our own message is not new");
}

#[test]
fn the_rows_preview_and_waiting_state_follow_the_send_at_once() {
    let mut m = indexed_model(10, 160, 48);
    let c = contact(0);
    let waiting = Preview {
        who: Some(Who::Customer),
        text: "hello?".into(),
        at: c.activity_at,
        activity: c.last_activity(),
        wait: Default::default(),
    };
    update(&mut m, Msg::Index(IndexMsg::Previews(vec![(c.uuid.clone(), waiting)])));
    assert_eq!(crate::tui::title::waiting(&m), 1);
    let uuid = send_ok(&mut m, "On its way");
    let p = m.sync.previews.get(&uuid).expect("a preview");
    assert_eq!((p.who, p.text.as_str()), (Some(Who::Agent), "On its way"));
    assert!(!p.waiting());
    assert_eq!(m.list.get(&uuid).unwrap().last.unwrap().who, Some(Who::Agent));
    assert_eq!(crate::tui::title::waiting(&m), 0, "nobody waits now");
}
