use super::*;

#[test]
fn stale_thread_for_a_previous_contact_is_dropped() {
    let mut m = model_with(20, 160, 48);
    let (old_id, old_uuid, ..) = {
        let fx = step(&mut m, key('j'));
        thread_fetch(&fx).unwrap()
    };
    let fx = step(&mut m, key('j'));
    let (new_id, new_uuid, ..) = thread_fetch(&fx).unwrap();
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: old_id,
            contact: old_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        },
    );
    assert!(m.thread.messages.is_empty(), "the old contact's thread must not show");
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: new_id,
            contact: new_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(4), None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 4);
    // Oldest first on screen.
    assert!(m.thread.messages[0].created_at < m.thread.messages[3].created_at);
}

#[test]
fn thread_scrolls_up_fetches_older_and_keeps_the_view() {
    let mut m = model_with(20, 160, 48);
    let (id, uuid, ..) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    let fx = update(
        &mut m,
        Msg::ThreadLoaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(20), Some("old1"))),
        },
    );
    assert!(thread_fetch(&fx).is_none(), "a full screen: nothing older yet");
    update(&mut m, code(KeyCode::Tab));
    let fx = update(&mut m, key('g')); // to the top
    let (oid, _, f, at) = thread_fetch(&fx).expect("older batch");
    assert_eq!((f, at), (ThreadFetch::Older, PageRequest::After("old1".into())));
    let scroll = m.thread.scroll;
    let first = m.thread.messages[0].clone();
    let mut older = messages(5);
    for (i, msg) in older.iter_mut().enumerate() {
        msg.uuid = Some(format!("old{i}"));
        msg.created_at = msg.created_at.map(|t| t - chrono::Duration::days(3));
    }
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: oid,
            contact: uuid,
            fetch: ThreadFetch::Older,
            result: Ok(page(older, None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 25);
    assert_eq!(m.thread.messages[5], first);
    assert_eq!(
        m.thread.scroll, scroll,
        "lines from the bottom unchanged: the view stays"
    );
    update(&mut m, key('G'));
    assert_eq!(m.thread.scroll, 0);
}

#[test]
fn thread_refresh_appends_new_messages() {
    let mut m = model_with(20, 160, 48);
    let (id, uuid) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    update(
        &mut m,
        Msg::ThreadLoaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        },
    );
    let fx = update(&mut m, Msg::RefreshDue);
    let (rid, ..) = fx
        .iter()
        .find_map(|e| match e {
            Effect::FetchThread {
                id,
                fetch: ThreadFetch::Refresh,
                ..
            } => Some((*id,)),
            _ => None,
        })
        .expect("thread refresh");
    let mut newest = messages(3);
    let mut new_msg = newest[0].clone();
    new_msg.uuid = Some("fresh".into());
    new_msg.created_at = Some(now());
    newest.insert(0, new_msg);
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: rid,
            contact: uuid,
            fetch: ThreadFetch::Refresh,
            result: Ok(page(newest, None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 4);
    assert_eq!(m.thread.messages[3].uuid.as_deref(), Some("fresh"));
    assert_eq!(m.thread.new_from, Some(3));
}
