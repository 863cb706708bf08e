//! The list backed by the local index: contacts read from it, changes a
//! sync brings in, last messages asked for, and what writes and refreshes
//! ask of the worker.

use super::*;
use crate::index::{Changes, Preview, Who};
use crate::tui::index_worker::IndexCmd;
use crate::tui::msg::index::{IndexMsg, SyncStatus};

fn index_cmds(fx: &[Effect]) -> Vec<IndexCmd> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Index(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn asked_previews(fx: &[Effect]) -> Vec<String> {
    index_cmds(fx)
        .into_iter()
        .flat_map(|c| match c {
            IndexCmd::Previews(w) => w.into_iter().map(|(u, _)| u).collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn names(m: &Model, n: usize) -> Vec<String> {
    (0..n)
        .filter_map(|r| m.list.row(r).map(|r| r.name.to_string()))
        .collect()
}

/// An 80x24 model with an index that has not synced, reading its
/// contacts; and the list generation they are read for.
fn reading_index() -> (Model, u64) {
    let mut m = empty_model(80, 24);
    m.sync.status = Some(SyncStatus::default());
    let generation = m.list.paging.generation;
    m.sync.loading = Some(generation);
    (m, generation)
}

/// A batch of contacts `range` read from the index for list `generation`.
fn read(m: &mut Model, generation: u64, range: std::ops::Range<usize>, done: bool) -> Vec<Effect> {
    update(
        m,
        Msg::Index(IndexMsg::Loaded {
            generation,
            contacts: contacts(range),
            done,
        }),
    )
}

fn changed(m: &mut Model, upserted: Vec<crate::api::Contact>, removed: Vec<String>) -> Vec<Effect> {
    update(m, Msg::Index(IndexMsg::Changed(Changes { upserted, removed })))
}

#[test]
fn the_index_is_read_one_batch_at_a_time_each_asked_for_when_the_last_is_in() {
    let (mut m, generation) = reading_index();
    let loads = |fx: &[Effect]| -> Vec<usize> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Index(IndexCmd::Load { skip, .. }) => Some(*skip),
                _ => None,
            })
            .collect()
    };
    assert_eq!(loads(&read(&mut m, generation, 0..10, false)), [10]);
    assert_eq!(loads(&read(&mut m, generation, 10..25, false)), [25]);
    assert_eq!(
        loads(&read(&mut m, generation + 1, 25..30, false)),
        [] as [usize; 0],
        "not for another list"
    );
    assert_eq!(
        loads(&read(&mut m, generation, 25..30, true)),
        [] as [usize; 0],
        "the last batch"
    );
    assert_eq!(m.list.store.len(), 30);
}

#[test]
fn memory_is_given_back_once_the_whole_index_is_read_not_before() {
    let (mut m, generation) = reading_index();
    let fx = read(&mut m, generation, 0..10, false);
    assert!(!fx.contains(&Effect::ReleaseMemory));
    let fx = read(&mut m, generation, 10..20, true);
    assert!(fx.contains(&Effect::ReleaseMemory), "{fx:?}");
}

#[test]
fn a_complete_index_is_the_whole_list_and_no_page_is_fetched() {
    let mut m = indexed_model(50, 80, 24);
    assert_eq!(m.list.store.len(), 50);
    assert!(m.list.paging.exhausted, "the index holds every contact");
    let fx = update(&mut m, key('G'));
    assert_eq!(m.list.view.selected, 49);
    assert!(list_fetch(&fx).is_none(), "no API page at the end of the list");
}

#[test]
fn contacts_read_in_batches_keep_the_selection_and_a_stale_batch_is_dropped() {
    let (mut m, generation) = reading_index();
    let fx = read(&mut m, generation, 0..10, false);
    assert!(thread_fetch(&fx).is_some(), "the first contact opens at once");
    update(&mut m, key('j'));
    read(&mut m, generation + 7, 10..20, true);
    assert_eq!(m.list.store.len(), 10, "a batch for another list is dropped");
    read(&mut m, generation, 10..20, true);
    assert_eq!(m.list.store.len(), 20);
    assert_eq!(m.list.selected_uuid(), Some(contact(1).uuid));
    assert_eq!(m.sync.loading, None);
}

#[test]
fn a_contact_with_a_new_message_moves_to_the_top_and_the_selection_follows_its_contact() {
    let mut m = indexed_model(30, 80, 24);
    for _ in 0..5 {
        update(&mut m, key('j'));
    }
    let selected = m.list.selected_uuid();
    let mut c = contact(20);
    c.activity_at = Some(now());
    c.name = "Moved Up".into();
    changed(&mut m, vec![c], vec![]);
    assert_eq!(names(&m, 1), vec!["Moved Up"]);
    assert_eq!(m.list.store.len(), 30, "moved, not duplicated");
    assert_eq!(m.list.selected_uuid(), selected, "the cursor stays on its contact");
    assert_eq!(m.list.view.selected, 6);
    // The store's order and its index agree after the move.
    for (i, r) in m.list.store.iter().enumerate() {
        assert_eq!(m.list.store.position(&r.uuid), Some(i));
    }
    let times: Vec<_> = m.list.store.iter().map(|r| r.last_activity()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
}

#[test]
fn a_change_that_does_not_move_a_contact_is_made_in_place_and_removed_contacts_go() {
    let mut m = indexed_model(10, 80, 24);
    let mut c = contact(3);
    c.closed_at = Some(now());
    c.tags = vec!["retagged".into()];
    changed(&mut m, vec![c.clone()], vec![contact(5).uuid]);
    assert_eq!(m.list.store.len(), 9);
    let row = m.list.get(&c.uuid).unwrap();
    assert!(!row.is_open());
    assert_eq!(&*row.tags[0], "retagged");
    assert_eq!(m.list.store.position(&c.uuid), Some(3));
    assert!(m.list.get(&contact(5).uuid).is_none());
}

#[test]
fn a_new_contact_goes_where_its_activity_puts_it() {
    let mut m = indexed_model(10, 80, 24);
    let mut c = contact(99);
    c.activity_at = contact(4).activity_at.map(|t| t + chrono::Duration::seconds(1));
    changed(&mut m, vec![c.clone()], vec![]);
    assert_eq!(m.list.store.position(&c.uuid), Some(4));
    assert_eq!(m.list.store.len(), 11);
}

#[test]
fn our_own_write_in_flight_decides_its_row_over_a_sync() {
    let mut m = indexed_model(10, 80, 24);
    let fx = update(&mut m, key('c'));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Apply {
            action: crate::triage::bulk::Action::Close,
            ..
        }
    )));
    let uuid = contact(0).uuid;
    assert!(!m.list.get(&uuid).unwrap().is_open(), "closed at once");
    // A pass that read the contact before the close landed.
    changed(&mut m, vec![contact(0)], vec![]);
    assert!(!m.list.get(&uuid).unwrap().is_open(), "the sync does not reopen it");
}

#[test]
fn with_a_filter_the_list_is_the_apis_and_syncs_do_not_touch_it() {
    let mut m = indexed_model(10, 80, 24);
    let filter = ContactFilter {
        source: Some("instagram".into()),
        ..Default::default()
    };
    let fx = {
        let mut fx = Vec::new();
        super::super::list::set_filter(&mut m, filter, &mut fx);
        fx
    };
    assert!(list_fetch(&fx).is_some(), "a filter walks the API");
    let mut c = contact(50);
    c.activity_at = Some(now());
    changed(&mut m, vec![c.clone()], vec![]);
    assert!(m.list.get(&c.uuid).is_none());
    // Back to everything: read from the index, not walked again.
    let mut fx = Vec::new();
    super::super::list::set_filter(&mut m, ContactFilter::default(), &mut fx);
    assert!(list_fetch(&fx).is_none());
    assert!(
        index_cmds(&fx)
            .iter()
            .any(|c| matches!(c, IndexCmd::Load { skip: 0, .. }))
    );
}

#[test]
fn the_refresh_timer_asks_for_an_incremental_pass_instead_of_the_first_page() {
    let mut m = indexed_model(10, 80, 24);
    let fx = update(&mut m, Msg::RefreshDue);
    assert!(index_cmds(&fx).contains(&IndexCmd::Incremental));
    assert!(list_fetch(&fx).is_none());
}

#[test]
fn a_write_goes_to_the_index_and_a_failed_one_does_not() {
    let mut m = indexed_model(10, 80, 24);
    let fx = update(&mut m, key('c'));
    let id = close_id(&fx);
    let mut closed = contact(0);
    closed.closed_at = Some(now());
    let fx = update(
        &mut m,
        Msg::Applied {
            id,
            uuid: closed.uuid.clone(),
            answer: (Ok(closed.clone())).into(),
        },
    );
    let cmds = index_cmds(&fx);
    assert!(cmds.contains(&IndexCmd::Store(Box::new(closed))));
    assert!(cmds.contains(&IndexCmd::Incremental));

    let fx = update(&mut m, key('j'));
    let fx2 = update(&mut m, key('c'));
    let id = close_id(&fx2);
    let fx3 = update(
        &mut m,
        Msg::Applied {
            id,
            uuid: contact(1).uuid,
            answer: (Err(err())).into(),
        },
    );
    assert!(
        !index_cmds(&fx3).iter().any(|c| matches!(c, IndexCmd::Store(_))),
        "a failed write changes nothing in the index"
    );
    let _ = fx;
}

#[test]
fn the_newest_page_of_an_opened_thread_goes_to_the_index() {
    let mut m = indexed_model(10, 80, 24);
    m.thread.contact = Some(contact(0).uuid);
    m.thread.loading = Some(77);
    let fx = update(
        &mut m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id: 77,
            contact: contact(0).uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        }),
    );
    assert!(index_cmds(&fx).iter().any(|c| matches!(
        c,
        IndexCmd::StoreThread { uuid, messages, .. } if *uuid == contact(0).uuid && messages.len() == 3
    )));
}

#[test]
fn last_messages_are_asked_for_the_rows_on_screen_and_the_next_once_until_a_contact_moves() {
    let (mut m, generation) = reading_index();
    let fx = read(&mut m, generation, 0..200, true);
    let asked = asked_previews(&fx);
    let height = m.list_height();
    assert_eq!(asked.len(), height * 2, "a screen and the next");
    assert_eq!(asked[0], contact(0).uuid);
    // Asked once: a tick asks nothing more.
    let fx = update(&mut m, Msg::Tick(now()));
    assert!(asked_previews(&fx).is_empty());
    // A preview that arrived is not asked again; a contact that moved is.
    let p = Preview {
        who: Some(Who::Customer),
        text: "hello".into(),
        at: contact(0).activity_at,
        activity: contact(0).last_activity(),
        wait: Default::default(),
    };
    update(&mut m, Msg::Index(IndexMsg::Previews(vec![(contact(0).uuid, p)])));
    let mut moved = contact(1);
    moved.activity_at = Some(now());
    let fx = changed(&mut m, vec![moved.clone()], vec![]);
    assert_eq!(asked_previews(&fx), vec![moved.uuid]);
    // Scrolling a screen down asks for the screen after it.
    let mut fx = Vec::new();
    for _ in 0..height * 2 {
        fx.extend(update(&mut m, key('j')));
    }
    assert!(!asked_previews(&fx).is_empty());
}

#[test]
fn without_an_index_nothing_is_asked_of_a_worker() {
    let mut m = model_with(40, 80, 24);
    let mut fx = update(&mut m, Msg::RefreshDue);
    fx.extend(update(&mut m, key('j')));
    assert!(index_cmds(&fx).is_empty());
}

#[test]
fn a_problem_in_the_background_is_one_error_toast() {
    let mut m = indexed_model(3, 80, 24);
    update(
        &mut m,
        Msg::Index(IndexMsg::Problem("syncing the local index failed: 401".into())),
    );
    let t = m.status.current().unwrap();
    assert_eq!(t.kind, ToastKind::Error);
    assert!(t.text.contains("401"));
}

#[test]
fn the_open_thread_is_fetched_when_a_pass_says_it_moved_not_on_every_tick() {
    let mut m = indexed_model(10, 160, 48);
    let open = m.thread.contact.clone().expect("the first contact is open");
    m.thread.loading = None;
    let fx = update(&mut m, Msg::RefreshDue);
    assert!(thread_fetch(&fx).is_none(), "no poll of a thread the passes follow");
    // Another contact moves: still nothing for the open thread.
    let mut other = contact(5);
    other.activity_at = Some(now());
    let fx = changed(&mut m, vec![other], vec![]);
    assert!(thread_fetch(&fx).is_none());
    // The open contact gets a message: its thread is fetched.
    let mut c = m.list.contact(&open).unwrap();
    c.activity_at = Some(now() + chrono::Duration::seconds(1));
    let fx = changed(&mut m, vec![c], vec![]);
    let (_, contact, fetch, _) = thread_fetch(&fx).expect("a thread refresh");
    assert_eq!((contact, fetch), (open, ThreadFetch::Refresh));
    // `r` always fetches.
    m.thread.refreshing = None;
    let fx = update(&mut m, key('r'));
    assert!(thread_fetch(&fx).is_some());
}
