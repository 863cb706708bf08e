use super::*;

/// Types `text` into `/` and runs the searches it hands off, in order.
fn search_for(m: &mut Model, text: &str) {
    for c in text.chars() {
        let fx = update(m, key(c));
        for e in fx {
            if let Effect::Inbox(InboxEffect::SearchContacts(job)) = e
                && let Some(done) = job.run()
            {
                update(m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
            }
        }
    }
}

#[test]
fn first_page_shows_and_loads_the_first_contact_at_once() {
    let mut m = empty_model(160, 48);
    let fx = startup(&mut m);
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("first page requested");
    assert_eq!((fetch, at), (ListFetch::Next, PageRequest::First));
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(0..20), Some("c1"))),
        },
    );
    assert_eq!(m.list.store.len(), 20);
    let (_, who, f, _) = thread_fetch(&fx).expect("thread of the first contact, no debounce");
    assert_eq!((who.as_str(), f), (contact(0).uuid.as_str(), ThreadFetch::Initial));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Details(crate::tui::details::DetailsEffect::FetchBot { .. })))
    );
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Details(crate::tui::details::DetailsEffect::FetchContact { .. })
    )));
}

#[test]
fn j_and_k_move_and_debounce_the_thread_load() {
    let mut m = model_with(20, 160, 48);
    let fx1 = update(&mut m, key('j'));
    let fx2 = update(&mut m, key('j'));
    assert_eq!(m.list.view.selected, 2);
    assert!(thread_fetch(&fx1).is_none(), "no request per row");
    // Only the last debounce counts.
    assert!(settle(&mut m, &fx1).is_empty());
    let fx = settle(&mut m, &fx2);
    assert_eq!(thread_fetch(&fx).unwrap().1, contact(2).uuid);
    update(&mut m, code(KeyCode::Up));
    assert_eq!(m.list.view.selected, 1);
    update(&mut m, key('g'));
    assert_eq!(m.list.view.selected, 0);
    update(&mut m, code(KeyCode::PageDown));
    assert!(m.list.view.selected > 10);
    update(&mut m, code(KeyCode::PageUp));
    assert_eq!(m.list.view.selected, 0);
}

#[test]
fn prefetch_triggers_near_the_end() {
    let m = model_with(20, 160, 48);
    // 48 rows tall: a screen is more than 20 rows, so the next page was asked already.
    assert!(m.list.paging.loading.is_some());
    let mut m = model_with(60, 80, 24);
    assert!(m.list.paging.loading.is_none(), "far from the end: no request yet");
    let screen = m.list_height();
    for _ in 0..(60 - screen - 1) {
        assert!(
            list_fetch(&update(&mut m, key('j'))).is_none(),
            "no fetch while far from the end"
        );
    }
    let fx = update(&mut m, key('j'));
    let (_, _, fetch, _, at) = list_fetch(&fx).expect("prefetch within a screen of the end");
    assert_eq!((fetch, at), (ListFetch::Next, PageRequest::After("c1".into())));
}

#[test]
fn bottom_goes_to_the_end_and_keeps_loading() {
    let mut m = model_with(60, 80, 24);
    let fx = update(&mut m, key('G'));
    assert_eq!(m.list.view.selected, 59);
    let (id, generation, fetch, ..) = list_fetch(&fx).expect("next page");
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(60..80), Some("c2"))),
        },
    );
    assert_eq!(m.list.view.selected, 79, "follows the end");
    assert!(list_fetch(&fx).is_none(), "the same walk keeps loading");
    assert_eq!(m.list.paging.loading, Some(id));
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(80..90), None)),
        },
    );
    assert_eq!(m.list.view.selected, 89);
    // The walk ends with a top-up pass from the newest; nothing moved.
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("top-up");
    assert_eq!(at, PageRequest::First);
    assert!(!m.list.paging.exhausted);
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(0..20), Some("c1"))),
        },
    );
    assert_eq!(m.list.view.selected, 89);
    assert!(m.list.paging.exhausted && !m.list.paging.follow_end);
}

#[test]
fn filter_change_drops_late_pages_of_the_old_filter() {
    let mut m = model_with(60, 80, 24);
    for _ in 0..50 {
        update(&mut m, key('j'));
    }
    let (old_id, old_gen, ..) = (m.list.paging.loading.unwrap(), m.list.paging.generation);
    update(&mut m, key('F'));
    assert!(matches!(
        m.overlay,
        Some(Overlay::Form {
            kind: FormKind::Filter,
            ..
        })
    ));
    type_text(&mut m, "instagram");
    let fx = submit(&mut m);
    assert!(m.overlay.is_none());
    let (id, generation, _, filter, at) = list_fetch(&fx).expect("first page of the new filter");
    assert_eq!(filter.source.as_deref(), Some("instagram"));
    assert_eq!(at, PageRequest::First);
    assert_ne!(generation, old_gen);
    assert!(m.list.store.is_empty());
    // The old filter's page arrives late: dropped.
    update(
        &mut m,
        Msg::ContactsLoaded {
            id: old_id,
            generation: old_gen,
            fetch: ListFetch::Next,
            result: Ok(page(contacts(60..80), None)),
        },
    );
    assert!(m.list.store.is_empty());
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch: ListFetch::Next,
            result: Ok(page(contacts(1..3), Some("n1"))),
        },
    );
    assert_eq!(m.list.store.len(), 2);
    // The filter is resent with the cursor.
    let (_, _, _, filter, at) = list_fetch(&fx).expect("next page");
    assert_eq!(
        (filter.source.as_deref(), at),
        (Some("instagram"), PageRequest::After("n1".into()))
    );
}

#[test]
fn refresh_merges_by_uuid_and_keeps_the_selection() {
    let mut m = model_with(20, 160, 48);
    m.session.bell = true;
    let fx = step(&mut m, key('j'));
    let _ = fx;
    update(&mut m, key('j'));
    let selected = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, Msg::RefreshDue);
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("refresh of the first page");
    assert_eq!((fetch, at), (ListFetch::Refresh, PageRequest::First));
    let mut changed = contact(5);
    changed.name = "Renamed".into();
    changed.activity_at = Some(now());
    let fresh = contact(500);
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(vec![fresh, changed], Some("x"))),
        },
    );
    assert_eq!(m.list.store.len(), 21);
    assert_eq!(
        &*m.list.store.get(0).unwrap().uuid,
        contact(500).uuid,
        "new contact on top"
    );
    assert_eq!(m.list.selected_uuid().unwrap(), selected, "selection kept by uuid");
    let c5 = m.list.get(&contact(5).uuid).unwrap();
    assert_eq!(&*c5.name, "Renamed");
    assert!(c5.has_new(), "new message marked");
    assert!(fx.contains(&Effect::Bell));
}

#[test]
fn search_filters_as_you_type_enter_keeps_esc_clears() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    search_for(&mut m, "bruce");
    assert_eq!(m.list.visible_len(), 1);
    assert_eq!(m.list.selected_contact().unwrap().uuid, contact(2).uuid);
    update(&mut m, code(KeyCode::Enter));
    assert!(!m.list.view.search.as_ref().unwrap().editing);
    assert_eq!(m.list.visible_len(), 1, "Enter keeps the filtered view");
    update(&mut m, key('j')); // keys act again
    update(&mut m, code(KeyCode::Esc));
    assert!(m.list.view.search.is_none());
    assert_eq!(m.list.visible_len(), 20);
    assert_eq!(
        m.list.selected_contact().unwrap().uuid,
        contact(2).uuid,
        "selection survives"
    );
    // By tag and phone too.
    update(&mut m, key('/'));
    search_for(&mut m, "urgent");
    assert!(m.list.visible_len() >= 1);
    assert!(m.list.row(0).unwrap().tags.iter().any(|t| &**t == "urgent"));
}

#[test]
fn toasts_expire_with_the_clock() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('y'));
    assert!(m.status.current().is_some());
    update(&mut m, Msg::Tick(now() + chrono::Duration::seconds(30)));
    assert!(m.status.current().is_none());
}

#[test]
fn narrow_enter_opens_the_thread() {
    let mut m = model_with(5, 80, 24);
    assert!(!m.is_wide());
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, Msg::Resize(160, 48));
    assert!(m.is_wide());
}

#[test]
fn load_failures_are_state_and_the_refresh_retries() {
    let mut m = empty_model(80, 24);
    let fx = startup(&mut m);
    let (id, generation, fetch, ..) = list_fetch(&fx).unwrap();
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Err(ApiError::Transport("refused".into())),
        },
    );
    assert!(m.list.error.as_deref().unwrap().contains("refused"));
    assert!(m.status.current().unwrap().text.contains("could not load contacts"));
    assert!(m.list.paging.loading.is_none());
    // The next refresh tick asks again, from the first page.
    let fx = update(&mut m, Msg::RefreshDue);
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("retry");
    assert_eq!(at, PageRequest::First);
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(0..3), None)),
        },
    );
    assert_eq!(m.list.store.len(), 3);
    assert!(m.list.error.is_none());
    // A thread that fails to load says so, and a late bot answer for another contact is dropped.
    let (tid, uuid) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: tid,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Err(err()),
        }),
    );
    assert!(m.thread.error.is_some());
    assert!(m.status.current().unwrap().text.contains("could not load messages"));
    let bid = m.details.bot.loading.unwrap();
    update(
        &mut m,
        Msg::Details(crate::tui::details::DetailsMsg::BotLoaded {
            id: bid,
            uuid: "someone-else".into(),
            result: Ok(bot(true)),
        }),
    );
    assert!(m.details.bot.bot.is_none());
    update(
        &mut m,
        Msg::Details(crate::tui::details::DetailsMsg::BotLoaded {
            id: bid,
            uuid,
            result: Ok(bot(true)),
        }),
    );
    assert!(m.details.bot.bot.is_some());
}
