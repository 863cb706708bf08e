//! `T` in the thread: the conversation moves to another funnel picked from a list.

use crate::api::Funnel;
use crate::tui::effect::Effect;
use crate::tui::fixtures::*;
use crate::tui::msg::Msg;
use crate::tui::thread::{Popup, ThreadEffect, ThreadMsg};
use crate::tui::update::update;

use super::rich::{files_and_places, screen, thread_with};

fn funnel(uuid: &str, name: &str) -> Funnel {
    Funnel {
        uuid: uuid.into(),
        name: name.into(),
        ..Default::default()
    }
}

#[test]
fn t_in_the_thread_picks_a_funnel_and_the_conversation_moves_to_it() {
    let mut m = thread_with(files_and_places(), 80, 24);
    update(&mut m, key('T'));
    assert!(m.thread.popup.is_none(), "no funnels read yet");
    assert!(m.status.current().unwrap().text.contains("reading the funnels"));

    m.catalog.funnels.loading = None;
    m.catalog.funnels.data = Some(vec![
        funnel("f1", "New lead"),
        funnel("f2", "Won"),
        funnel("f3", "Lost"),
    ]);
    update(&mut m, key('T'));
    assert!(matches!(m.thread.popup, Some(Popup::Funnel { .. })));
    let s = screen(&m);
    assert!(
        s.contains("Move the conversation to a funnel") && s.contains("New lead") && s.contains("Lost"),
        "{s}"
    );
    for c in "won".chars() {
        update(&mut m, key(c));
    }
    let fx = update(&mut m, code(crossterm::event::KeyCode::Enter));
    let (id, funnel) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Thread(ThreadEffect::Funnel { id, funnel, .. }) => Some((*id, funnel.clone())),
            _ => None,
        })
        .expect("the move is asked");
    assert_eq!(funnel, "f2");
    let mut moved = contact(0);
    moved.funnel_id = Some("f2".into());
    update(
        &mut m,
        Msg::Thread(ThreadMsg::FunnelSet {
            id,
            result: Ok(Box::new(moved)),
        }),
    );
    assert!(
        m.status.current().unwrap().text.contains("moved to Won"),
        "{:?}",
        m.status.current()
    );
}

#[test]
fn t_on_the_list_still_sets_the_team() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('T'));
    assert!(m.thread.popup.is_none());
    assert!(m.overlay.is_some(), "the team form");
}
