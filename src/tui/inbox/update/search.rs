//! `/` search: typing never waits. Each change of the query (or of the
//! loaded contacts while a query is active) hands a `SearchJob` to the
//! effect runner; its result replaces the matches when it arrives, unless
//! a newer query was typed meanwhile.

use crossterm::event::KeyEvent;

use super::super::fx::InboxEffect;
use super::super::msg::SearchDone;
use super::super::state::contact_list::{ContactStore, Funnels, Search, SearchJob, admits, funnel_filter};
use super::super::state::{ContactList, Inbox};
use super::{O, lookup, selection};
use crate::tui::keymap::{Action, Mode, ModeAction as M};
use crate::tui::shared::{Cx, Note, Pane};

/// The index's best hits a search asks for: an answer this long may have
/// left more out.
pub const SEARCH_HITS: usize = 200;

pub fn start_search(list: &mut ContactList) {
    let search = list.view.search.get_or_insert_with(Search::default);
    search.editing = true;
}

/// A key while the query is typed; Up and Down come back as the list
/// motion to run (the list, not the search, moves the selection).
pub fn key(st: &mut Inbox, cx: &Cx, out: &mut O, key: KeyEvent) -> Option<Action> {
    let search = st.list.view.search.as_mut()?;
    match cx.keys.mode_action_for(Mode::Search, &key) {
        Some(M::Clear) => {
            clear_search(st, cx);
            return None;
        }
        Some(M::Done) => {
            search.editing = false;
            if search.query.is_empty() {
                st.list.view.search = None;
                return None;
            }
            // Enter opens the best match (the selected row): at once, and
            // in the thread pane when one pane shows at a time.
            if let Some(uuid) = st.list.selected_uuid() {
                if Some(uuid.as_str()) != selection::open(cx, out) {
                    *st.settle = None;
                    out.note(Note::Show(uuid));
                }
                if !cx.is_wide() {
                    out.note(Note::Focus(Pane::Thread));
                }
            }
            return None;
        }
        Some(M::DeleteChar) => {
            search.query.pop();
        }
        Some(M::Down) => {
            search.lookup.picked = true;
            return Some(Action::MoveDown);
        }
        Some(M::Up) => {
            search.lookup.picked = true;
            return Some(Action::MoveUp);
        }
        Some(_) => return None,
        // The line's editing keys, as readline's (the cursor is at the end).
        None => match cx.keys.mode_action_for(Mode::Text, &key) {
            Some(M::DeleteToStart) => search.query.clear(),
            Some(M::DeleteWord) => rub_out_word(&mut search.query),
            // Anything else is text: a character (not a Ctrl chord) types.
            _ => match crate::tui::keymap::typed_char(&key) {
                Some(c) => search.query.push(c),
                None => return None,
            },
        },
    }
    query_changed(st, cx, out);
    None
}

/// Adds pasted text to the query being typed.
pub fn paste(st: &mut Inbox, cx: &Cx, out: &mut O, text: &str) {
    if let Some(s) = st.list.view.search.as_mut().filter(|s| s.editing) {
        s.query.extend(text.chars().filter(|c| !c.is_control()));
        query_changed(st, cx, out);
    }
}

/// The query changed: search for it (narrowing the last matches when it
/// only got longer); the best match is selected when the result arrives.
fn query_changed(st: &mut Inbox, cx: &Cx, out: &mut O) {
    lookup::query_changed(st);
    let selected = st.list.selected_uuid();
    let store = &st.list.store;
    let (layout, version) = (store.layout(), store.version());
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    s.next_generation();
    s.funnels = funnel_filter(&s.query, &cx.known.funnels);
    if s.query.is_empty() {
        s.matched.clear();
        s.matches.clear();
        s.capped = false;
        s.total = None;
        s.running = false;
        st.list.view.selected = 0;
        st.list.view.offset = 0;
    } else {
        let within = s.narrowable(&s.query, layout, version);
        s.to_top = true;
        spawn(st, out, within);
    }
    if st.list.selected_uuid() != selected {
        selection::selection_changed(st, cx, out);
    }
}

fn spawn(st: &mut Inbox, out: &mut O, within: Option<Vec<u32>>) {
    let store = &st.list.store;
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    s.running = true;
    out.fx(InboxEffect::SearchContacts(SearchJob {
        generation: s.generation,
        query: s.query.clone(),
        hay: store.haystacks(),
        within,
        layout: store.layout(),
        version: store.version(),
        latest: s.latest.clone(),
        funnels: s.funnels.clone(),
    }));
}

/// The loaded contacts changed: an active search runs again (once the one
/// running ends, so a stream of pages does not queue a run per page).
pub fn recompute_search(st: &mut Inbox, out: &mut O) {
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    if s.query.is_empty() || s.running {
        return;
    }
    s.next_generation();
    spawn(st, out, None);
}

/// A search result: dropped when a newer query (or store change) was
/// searched since; searched again when the store changed meanwhile.
pub fn searched(st: &mut Inbox, cx: &Cx, out: &mut O, done: SearchDone) {
    let selected = st.list.selected_uuid();
    let store = &st.list.store;
    let (layout, version) = (store.layout(), store.version());
    let Some(s) = st.list.view.search.as_mut() else {
        return;
    };
    if done.generation != s.generation {
        return; // stale: a newer search is on its way
    }
    s.running = false;
    if done.layout != layout {
        // Rows moved: these row numbers name other contacts now.
        s.next_generation();
        return spawn(st, out, None);
    }
    let to_top = std::mem::take(&mut s.to_top);
    s.matched = done.query;
    s.capped = done.hits.len() >= SEARCH_HITS;
    s.total = done.total;
    s.matches = merge_hits(&st.list.store, &done.hits, done.matches, s.funnels.as_ref());
    s.layout = done.layout;
    s.version = done.version;
    let again = done.version != version;
    let keep = if to_top {
        None
    } else {
        selected.as_deref().and_then(|u| st.list.row_of(u))
    };
    let v = &mut st.list.view;
    match keep {
        Some(row) => v.selected = row,
        None => {
            v.selected = 0;
            v.offset = 0;
        }
    }
    st.list.clamp(cx.list_rows());
    if st.list.selected_uuid() != selected {
        selection::selection_changed(st, cx, out);
    }
    if again {
        recompute_search(st, out);
    } else {
        lookup::after_search(st, out);
    }
}

/// The index's hits (those loaded, in `funnel:`'s funnels), best first,
/// then the rows' own matches not among them.
fn merge_hits(store: &ContactStore, hits: &[String], matches: Vec<u32>, funnels: Option<&Funnels>) -> Vec<u32> {
    if hits.is_empty() {
        return matches;
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(hits.len() + matches.len());
    for uuid in hits {
        if let Some(i) = store.position(uuid)
            && store.get(i).is_some_and(|r| admits(funnels, r.funnel()))
            && seen.insert(i as u32)
        {
            out.push(i as u32);
        }
    }
    out.extend(matches.into_iter().filter(|i| !seen.contains(i)));
    out
}

/// Esc: the search goes (a run still going stops), the selection stays
/// on its contact.
pub fn clear_search(st: &mut Inbox, cx: &Cx) {
    let selected = st.list.selected_uuid();
    if let Some(s) = st.list.view.search.take() {
        s.latest.store(u64::MAX, std::sync::atomic::Ordering::Relaxed); // stops a run
        s.lookup.stop();
    }
    if let Some(uuid) = selected
        && let Some(row) = st.list.row_of(&uuid)
    {
        st.list.view.selected = row;
    }
    st.list.clamp(cx.list_rows());
}

/// Ctrl-w as readline's: the spaces before the cursor, then the word.
fn rub_out_word(query: &mut String) {
    let kept = query.trim_end().trim_end_matches(|c: char| !c.is_whitespace()).len();
    query.truncate(kept);
}
