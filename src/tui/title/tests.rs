use crate::tui::fixtures::{model_with, now};

#[test]
fn the_title_counts_open_conversations_with_unseen_messages() {
    let mut m = model_with(6, 80, 24);
    assert_eq!(
        super::text(&m),
        format!("frontdesk · {} · 0 waiting", m.session.account)
    );
    for i in [1, 2, 4] {
        let uuid = m.list.store.get(i).unwrap().uuid.to_string();
        m.list.set_seen(&uuid, now() - chrono::Duration::days(1));
    }
    let closed = m.list.store.get(4).unwrap().uuid.to_string();
    m.list.store.update(&closed, |r| r.closed_at = Some(now()));
    assert_eq!(super::waiting(&m), 2, "the closed one does not wait");
}

#[test]
fn with_the_index_the_title_counts_the_waiting_view() {
    use crate::index::{Preview, Who};
    use crate::tui::fixtures::{contact, indexed_model};
    use crate::tui::msg::Msg;
    use crate::tui::msg::index::IndexMsg;
    let mut m = indexed_model(10, 80, 24);
    let previews = [0usize, 1, 4]
        .into_iter()
        .map(|i| {
            let c = contact(i);
            let p = Preview {
                who: Some(Who::Customer),
                text: "hello?".into(),
                at: c.activity_at,
                activity: c.last_activity(),
                wait: Default::default(),
            };
            (c.uuid, p)
        })
        .collect();
    crate::tui::update::update(&mut m, Msg::Index(IndexMsg::Previews(previews)));
    // 4 is closed: it does not wait.
    assert_eq!(super::waiting(&m), 2);
    assert!(super::text(&m).ends_with("· 2 waiting"));
}
