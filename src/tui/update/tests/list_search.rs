//! `/` search: results come back as messages; stale ones are dropped.

use std::sync::Arc;

use super::*;
use crate::tui::inbox::contact_list::{SearchDone, SearchJob};

/// The search jobs among `fx`.
fn jobs(fx: &[Effect]) -> Vec<SearchJob> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Inbox(InboxEffect::SearchContacts(j)) => Some(j.clone()),
            _ => None,
        })
        .collect()
}

fn result(m: &mut Model, job: SearchJob) -> Vec<Effect> {
    let done = job.run().expect("not superseded");
    update(m, Msg::Inbox(InboxMsg::ContactsSearched(done)))
}

#[test]
fn typing_hands_matching_off_and_the_result_replaces_the_view() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    let fx = update(&mut m, key('b'));
    let job = jobs(&fx).pop().expect("a search job, not a search on the UI thread");
    assert_eq!(m.list.visible_len(), 20, "the view waits for the result");
    result(&mut m, job);
    assert!(m.list.visible_len() < 20);
    assert_eq!(m.list.view.selected, 0);
}

#[test]
fn an_older_queries_result_is_dropped() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    let old = jobs(&update(&mut m, key('x'))).pop().unwrap();
    let new = jobs(&update(&mut m, code(KeyCode::Backspace)));
    assert!(new.is_empty(), "an empty query needs no search");
    let new = jobs(&type_text(&mut m, "bruce")).pop().unwrap();
    // The stale run would have matched nothing: it must not win.
    let done = SearchDone {
        generation: old.generation,
        query: old.query.clone(),
        matches: vec![],
        hits: vec![],
        total: None,
        layout: old.layout,
        version: old.version,
    };
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
    assert_eq!(m.list.visible_len(), 20, "stale result ignored");
    result(&mut m, new);
    assert_eq!(m.list.visible_len(), 1);
    assert_eq!(m.list.selected_contact().unwrap().uuid, contact(2).uuid);
}

#[test]
fn a_longer_query_narrows_the_last_matches() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    let first = jobs(&update(&mut m, key('b'))).pop().unwrap();
    assert!(first.within.is_none());
    result(&mut m, first);
    let found = m.list.visible_len();
    let second = jobs(&update(&mut m, key('r'))).pop().unwrap();
    assert_eq!(
        second.within.as_ref().map(Vec::len),
        Some(found),
        "only the last matches"
    );
}

#[test]
fn a_page_arriving_during_a_search_searches_again_with_it() {
    let mut m = model_with(20, 60, 24);
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, "contact")).pop().unwrap();
    result(&mut m, job);
    let before = m.list.visible_len();
    let (id, generation, fetch, ..) = list_fetch(&update(&mut m, code(KeyCode::Down))).expect("prefetch");
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(20..40), Some("c2"))),
        },
    );
    let again = jobs(&fx).pop().expect("the new rows are searched");
    result(&mut m, again);
    assert_eq!(m.list.visible_len(), before + 20);
}

#[test]
fn moving_through_100_000_contacts_copies_nothing() {
    let mut m = model_with(20, 160, 48);
    m.list.store.set(contacts(0..100_000));
    m.list.view.selected = 50_000;
    let hay = m.list.store.haystacks();
    let first = m.list.store.get(0).unwrap() as *const _;
    let version = m.list.store.version();
    let fx = update(&mut m, key('k'));
    assert_eq!(m.list.view.selected, 49_999);
    assert!(Arc::ptr_eq(&hay, &m.list.store.haystacks()), "search text not copied");
    assert_eq!(
        m.list.store.get(0).unwrap() as *const _,
        first,
        "rows not moved or copied"
    );
    assert_eq!(m.list.store.version(), version, "the store is untouched");
    assert!(
        fx.iter()
            .all(|e| matches!(e, Effect::Inbox(InboxEffect::Debounce { .. }))),
        "{fx:?}"
    );
}

#[test]
fn the_indexs_hits_come_first_then_the_rows_own_matches_once_each() {
    let mut m = model_with(20, 80, 24);
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, "bruce")).pop().unwrap();
    let mut done = job.run().unwrap();
    assert_eq!(done.matches, vec![2]);
    // The index found a note or a message mentioning it, and contact 2.
    done.hits = vec![contact(7).uuid, contact(2).uuid, "not-loaded".into()];
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
    let shown: Vec<String> = (0..m.list.visible_len())
        .map(|r| m.list.row(r).unwrap().uuid.to_string())
        .collect();
    assert_eq!(shown, vec![contact(7).uuid, contact(2).uuid]);
}

#[test]
fn enter_opens_the_best_match_in_the_thread_pane_on_a_narrow_terminal() {
    let mut m = model_with(20, 80, 24);
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, "bruce")).pop().unwrap();
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(job.run().unwrap())));
    let fx = update(&mut m, code(KeyCode::Enter));
    let (_, opened, _, _) = thread_fetch(&fx).expect("the match's thread loads at once");
    assert_eq!(opened, contact(2).uuid);
    assert_eq!(m.focus, crate::tui::model::Pane::Thread);
    assert_eq!(m.list.visible_len(), 1, "the matches stay listed");
}

/// The list's title after a search for `query` whose index answer is
/// `hits` loaded contacts (the rows' own text matching none).
fn title_after_hits(query: &str, hits: usize) -> String {
    title_after_found(query, hits, None)
}

/// The same, the index saying it matched `total` in all.
fn title_after_found(query: &str, hits: usize, total: Option<usize>) -> String {
    let mut m = model_with(250, 160, 48);
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, query)).pop().unwrap();
    let mut done = job.run().unwrap();
    done.matches.clear();
    done.hits = (0..hits).map(|i| contact(i).uuid).collect();
    done.total = total;
    update(&mut m, Msg::Inbox(InboxMsg::ContactsSearched(done)));
    assert_eq!(m.list.visible_len(), hits);
    let t = crate::tui::view::tests::draw(&m);
    let text = format!("{}", t.backend());
    text.lines()
        .find(|l| l.contains("Contacts"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_search_whose_index_answer_hit_its_cap_says_there_are_more() {
    let capped = title_after_hits("refund", 200);
    assert!(capped.contains("/refund 200+ found"), "{capped}");
    let whole = title_after_hits("refund", 199);
    assert!(whole.contains("/refund 199 found"), "{whole}");
}

#[test]
fn a_capped_search_says_how_many_the_index_matched_in_all() {
    let counted = title_after_found("refund", 200, Some(1_234));
    assert!(counted.contains("/refund 200 of 1,234 found"), "{counted}");
    // No total said (a search without the index's count): more, unsaid.
    let unsaid = title_after_found("refund", 200, None);
    assert!(unsaid.contains("/refund 200+ found"), "{unsaid}");
}

#[test]
fn a_search_is_asked_again_when_the_index_was_busy_or_its_search_rows_are_all_written() {
    use crate::tui::msg::index::{IndexMsg, SyncStatus};
    let mut m = crate::tui::fixtures::indexed_model(20, 160, 48);
    let indexing = |n| SyncStatus {
        indexing: Some((n, 20)),
        ..SyncStatus::default()
    };
    update(&mut m, Msg::Index(IndexMsg::Status(indexing(0))));
    update(&mut m, key('/'));
    let job = jobs(&type_text(&mut m, "bruce")).pop().expect("a search");
    result(&mut m, job);
    // Progress alone asks nothing again.
    assert!(jobs(&update(&mut m, Msg::Index(IndexMsg::Status(indexing(10))))).is_empty());
    // Every row written: the search runs again, now over all of them.
    let fx = update(&mut m, Msg::Index(IndexMsg::Status(SyncStatus::default())));
    let again = jobs(&fx).pop().expect("searched again once indexed");
    assert_eq!(again.query, "bruce");
    result(&mut m, again);
    // A search that found the index busy is asked again at the next word
    // from the worker.
    update(&mut m, Msg::Index(IndexMsg::SearchBusy(true)));
    let fx = update(&mut m, Msg::Index(IndexMsg::Status(SyncStatus::default())));
    assert_eq!(jobs(&fx).len(), 1, "asked again after a busy index");
}

#[test]
fn ctrl_w_deletes_a_word_and_ctrl_u_clears_the_line_as_readline() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    type_text(&mut m, "ana souza  ");
    let query = |m: &Model| m.list.view.search.as_ref().map(|s| s.query.clone());
    update(&mut m, ctrl('w'));
    assert_eq!(query(&m).as_deref(), Some("ana "));
    update(&mut m, ctrl('u'));
    assert_eq!(query(&m).as_deref(), Some(""), "still searching, the line empty");
    assert!(m.list.view.search.as_ref().is_some_and(|s| s.editing));
}
