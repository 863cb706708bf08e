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
