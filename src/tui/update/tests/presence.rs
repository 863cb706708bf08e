//! Through a hub, this agent's presence: "replying…" while writing, and
//! only viewing once the reply is sent (colleagues' screens stop saying
//! "replying…" at the send, not when the composer closes).

use crate::api::{DeliveryStatus, SentMessage};
use crate::tui::compose::{ComposeEffect, ComposeMsg};
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::Model;
use crate::tui::msg::Msg;
use crate::tui::shared::colleagues::Doing;
use crate::tui::update::tests::*;
use crate::tui::update::update;

fn told(fx: &[Effect]) -> Option<Option<Doing>> {
    fx.iter().rev().find_map(|e| match e {
        Effect::Index(IndexCmd::Presence { doing, .. }) => Some(*doing),
        _ => None,
    })
}

fn through_a_hub() -> (Model, String) {
    let mut m = model_with(20, 160, 48);
    let hub =
        crate::hubclient::HubClient::new("http://127.0.0.1:9", "token", std::time::Duration::from_secs(1)).unwrap();
    m.session.hub = Some(hub);
    m.session.agent = Some("dana".into());
    let uuid = m.thread.contact.clone().unwrap();
    (m, uuid)
}

#[test]
fn replying_ends_when_the_message_is_sent_and_comes_back_with_more_typing() {
    let (mut m, uuid) = through_a_hub();
    let fx = update(&mut m, key('R'));
    assert_eq!(told(&fx), Some(Some(Doing::Composing)));
    type_text(&mut m, "On its way");
    let fx = submit(&mut m);
    let id = fx
        .iter()
        .find_map(|e| match e {
            Effect::Compose(ComposeEffect::Send { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("sent");
    let fx = update(
        &mut m,
        Msg::Compose(ComposeMsg::Sent {
            id,
            contact: uuid.clone(),
            result: Ok(SentMessage {
                uuid: "msg-1".into(),
                status: DeliveryStatus::Enqueued,
            }),
        }),
    );
    assert_eq!(
        m.compose.open.as_deref(),
        Some(uuid.as_str()),
        "the composer stays open"
    );
    assert_eq!(told(&fx), Some(Some(Doing::Viewing)), "sent: no longer replying");
    let fx = type_text(&mut m, "x");
    assert_eq!(told(&fx), Some(Some(Doing::Composing)), "writing again");
}
