//! The walk over GET /contacts: the repeated-cursor guard and the top-up
//! pass that makes "(all)" true under live traffic.

use chrono::Duration;

use super::*;

/// The next page of the walk in flight (a walk sends several pages under
/// one request id).
fn answer(m: &mut Model, _fx: &[Effect], items: Vec<crate::api::Contact>, next: Option<&str>) -> Vec<Effect> {
    let id = m.list.paging.loading.expect("a page was asked for");
    let (generation, fetch) = (m.list.paging.generation, ListFetch::Next);
    update(
        m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(items, next)),
        },
    )
}

/// A model 80x24 with the first page loaded (next: "c1"), walking to the end.
fn walking() -> (Model, Vec<Effect>) {
    let mut m = model_with(20, 80, 24);
    let fx = update(&mut m, key('G'));
    (m, fx)
}

#[test]
fn a_repeated_cursor_stops_the_walk_with_an_error() {
    let (mut m, fx) = walking();
    assert_eq!(list_fetch(&fx).unwrap().4, PageRequest::After("c1".into()));
    let fx = answer(&mut m, &fx, contacts(20..40), Some("c1"));
    assert!(list_fetch(&fx).is_none(), "no request for a cursor seen before");
    assert!(
        m.list.error.as_deref().unwrap().contains("repeated"),
        "{:?}",
        m.list.error
    );
    assert!(m.status.current().unwrap().text.contains("could not load contacts"));
    assert!(!m.list.paging.exhausted, "not all loaded: no '(all)'");
    assert!(list_fetch(&update(&mut m, key('G'))).is_none(), "stays stopped");
    assert!(list_fetch(&update(&mut m, key('j'))).is_none());
}

#[test]
fn a_cursor_cycle_a_b_a_stops_the_walk() {
    let (mut m, fx) = walking();
    let fx = answer(&mut m, &fx, contacts(20..40), Some("c2"));
    let fx = answer(&mut m, &fx, contacts(40..60), Some("c1"));
    assert!(list_fetch(&fx).is_none());
    assert!(m.list.error.is_some());
    assert_eq!(m.list.store.len(), 60);
}

#[test]
fn the_end_of_a_walk_tops_up_from_the_newest_and_loads_what_moved() {
    let (mut m, fx) = walking();
    let fx = answer(&mut m, &fx, contacts(20..40), Some("c2"));
    let fx = answer(&mut m, &fx, contacts(40..60), None);
    let (_, _, fetch, _, at) = list_fetch(&fx).expect("the top-up pass");
    assert_eq!((fetch, at), (ListFetch::Next, PageRequest::First));
    assert!(!m.list.paging.exhausted, "not '(all)' before the top-up");
    // Contact 70 got a message during the walk and jumped ahead of the
    // cursor: it is on no page the walk saw. Contact 3 also got one.
    let mut moved = contact(70);
    moved.activity_at = Some(now());
    let mut three = contact(3);
    three.activity_at = Some(now());
    let top = vec![moved.clone(), three, contact(0)];
    let fx = answer(&mut m, &fx, top, Some("t1"));
    let (_, _, _, _, at) = list_fetch(&fx).expect("newer than the walk's start still: go on");
    assert_eq!(at, PageRequest::After("t1".into()));
    // The next page reaches contacts older than the walk's start: done.
    let fx = answer(&mut m, &fx, contacts(1..21), Some("t2"));
    assert!(list_fetch(&fx).is_none(), "the pass ends at the walk's start");
    assert!(m.list.paging.exhausted, "'(all)' is true now");
    assert_eq!(m.list.store.len(), 61, "every contact once");
    assert_eq!(
        &*m.list.store.get(0).unwrap().uuid,
        moved.uuid,
        "the moved contact on top"
    );
    assert_eq!(m.list.view.selected, 60, "G still at the end");
}

#[test]
fn a_walk_of_one_page_needs_no_top_up() {
    let mut m = empty_model(80, 24);
    let fx = startup(&mut m);
    let fx = answer(&mut m, &fx, contacts(0..5), None);
    assert!(list_fetch(&fx).is_none());
    assert!(m.list.paging.exhausted);
}

#[test]
fn a_repeated_cursor_in_the_top_up_stops_it_too() {
    let (mut m, fx) = walking();
    let fx = answer(&mut m, &fx, contacts(20..40), None);
    let mut fresh = contact(80);
    fresh.activity_at = Some(now());
    let fx = answer(&mut m, &fx, vec![fresh.clone()], Some("t1"));
    let fx = answer(&mut m, &fx, vec![fresh], Some("t1"));
    assert!(list_fetch(&fx).is_none());
    assert!(m.list.error.is_some());
    assert_eq!(m.list.store.len(), 41, "no duplicate");
}

#[test]
fn prefetch_reaches_further_ahead_over_a_slow_link() {
    let mut m = model_with(100, 80, 24);
    let screen = m.list_height();
    assert!(m.list.paging.loading.is_none());
    // A page that took 360 ms (three ticks).
    for _ in 0..(100 - screen - 10) {
        update(&mut m, key('j'));
    }
    let (id, generation, fetch, ..) = (1..)
        .find_map(|_| list_fetch(&update(&mut m, key('j'))))
        .expect("prefetch");
    let sent = m.now;
    update(&mut m, Msg::Tick(sent + Duration::milliseconds(360)));
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(100..120), Some("c2"))),
        },
    );
    assert_eq!(m.list.paging.rtt_ms, Some(360));
    let fast = m.list.paging.prefetch_rows(screen);
    assert!(fast >= screen + 360 / 33, "a held key's worth of rows more: {fast}");
}

#[test]
fn g_asks_for_every_page_at_once_and_applies_them_as_they_stream_in() {
    let (mut m, fx) = walking();
    let pages = fx.iter().find_map(|e| match e {
        Effect::FetchContacts { pages, .. } => Some(*pages),
        _ => None,
    });
    assert_eq!(pages, Some(u32::MAX), "one walk, not a request per frame");
    let (id, generation, fetch, ..) = list_fetch(&fx).unwrap();
    for (n, next) in [(20, Some("c2")), (40, Some("c3"))] {
        let fx = update(
            &mut m,
            Msg::ContactsLoaded {
                id,
                generation,
                fetch,
                result: Ok(page(contacts(n..n + 20), next)),
            },
        );
        assert!(list_fetch(&fx).is_none(), "the walk goes on by itself");
        assert_eq!(m.list.paging.loading, Some(id));
    }
    assert_eq!(m.list.store.len(), 60);
    assert_eq!(m.list.view.selected, 59, "following the end");
}
