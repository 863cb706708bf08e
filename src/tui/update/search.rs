//! `/` search: typing never waits. Each change of the query (or of the
//! loaded contacts while a query is active) hands a `SearchJob` to the
//! effect runner; its result replaces the matches when it arrives, unless
//! a newer query was typed meanwhile.

use crate::tui::inbox::InboxEffect;
use crossterm::event::KeyEvent;

use super::notes::selection_changed;
use crate::tui::effect::Effect;
use crate::tui::keymap::{Action, Mode, ModeAction as M};
use crate::tui::model::contact_list::{SearchDone, SearchJob};
use crate::tui::model::{Model, Search};

pub(crate) fn start_search(model: &mut Model) {
    let search = model.list.view.search.get_or_insert_with(Search::default);
    search.editing = true;
}

/// A key while the query is typed; Up and Down come back as the list
/// motion to run (the list, not the search, moves the selection).
pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> Option<Action> {
    let search = model.list.view.search.as_mut()?;
    match model.keys.mode_action_for(Mode::Search, &key) {
        Some(M::Clear) => {
            clear_search(model, fx);
            return None;
        }
        Some(M::Done) => {
            search.editing = false;
            if search.query.is_empty() {
                model.list.view.search = None;
                return None;
            }
            // Enter opens the best match (the selected row): at once, and
            // in the thread pane when one pane shows at a time.
            let selected = model.list.selected_uuid();
            if selected.is_some() {
                if selected != model.thread.contact {
                    model.settle = None;
                    super::select::load_selected(model, fx);
                }
                if !model.is_wide() {
                    model.focus = crate::tui::model::Pane::Thread;
                }
            }
            return None;
        }
        Some(M::DeleteChar) => {
            search.query.pop();
        }
        Some(M::Down) => return Some(Action::MoveDown),
        Some(M::Up) => return Some(Action::MoveUp),
        Some(_) => return None,
        // Anything else is text: a character (not a Ctrl chord) types.
        None => match crate::tui::keymap::typed_char(&key) {
            Some(c) => search.query.push(c),
            None => return None,
        },
    }
    query_changed(model, fx);
    None
}

/// Adds pasted text to the query being typed.
pub(crate) fn paste(model: &mut Model, text: &str, fx: &mut Vec<Effect>) {
    if let Some(s) = model.list.view.search.as_mut().filter(|s| s.editing) {
        s.query.extend(text.chars().filter(|c| !c.is_control()));
        query_changed(model, fx);
    }
}

/// The query changed: search for it (narrowing the last matches when it
/// only got longer); the best match is selected when the result arrives.
fn query_changed(model: &mut Model, fx: &mut Vec<Effect>) {
    let selected = model.list.selected_uuid();
    let store = &model.list.store;
    let (layout, version) = (store.layout(), store.version());
    let Some(s) = model.list.view.search.as_mut() else {
        return;
    };
    s.next_generation();
    if s.query.is_empty() {
        s.matched.clear();
        s.matches.clear();
        s.capped = false;
        s.total = None;
        s.running = false;
        model.list.view.selected = 0;
        model.list.view.offset = 0;
    } else {
        let within = s.narrowable(&s.query, layout, version);
        s.to_top = true;
        spawn(model, within, fx);
    }
    if model.list.selected_uuid() != selected {
        selection_changed(model, fx);
    }
}

fn spawn(model: &mut Model, within: Option<Vec<u32>>, fx: &mut Vec<Effect>) {
    let store = &model.list.store;
    let Some(s) = model.list.view.search.as_mut() else {
        return;
    };
    s.running = true;
    fx.push(Effect::Inbox(InboxEffect::SearchContacts(SearchJob {
        generation: s.generation,
        query: s.query.clone(),
        hay: store.haystacks(),
        within,
        layout: store.layout(),
        version: store.version(),
        latest: s.latest.clone(),
    })));
}

/// The loaded contacts changed: an active search runs again (once the one
/// running ends, so a stream of pages does not queue a run per page).
pub(crate) fn recompute_search(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(s) = model.list.view.search.as_mut() else {
        return;
    };
    if s.query.is_empty() || s.running {
        return;
    }
    s.next_generation();
    spawn(model, None, fx);
}

/// A search result: dropped when a newer query (or store change) was
/// searched since; searched again when the store changed meanwhile.
pub(crate) fn searched(model: &mut Model, done: SearchDone, fx: &mut Vec<Effect>) {
    let selected = model.list.selected_uuid();
    let store = &model.list.store;
    let (layout, version) = (store.layout(), store.version());
    let Some(s) = model.list.view.search.as_mut() else {
        return;
    };
    if done.generation != s.generation {
        return; // stale: a newer search is on its way
    }
    s.running = false;
    if done.layout != layout {
        // Rows moved: these row numbers name other contacts now.
        s.next_generation();
        return spawn(model, None, fx);
    }
    let to_top = std::mem::take(&mut s.to_top);
    s.matched = done.query;
    s.capped = done.hits.len() >= crate::tui::effect::SEARCH_HITS;
    s.total = done.total;
    s.matches = merge_hits(&model.list.store, &done.hits, done.matches);
    s.layout = done.layout;
    s.version = done.version;
    let again = done.version != version;
    let keep = if to_top {
        None
    } else {
        selected.as_deref().and_then(|u| model.list.row_of(u))
    };
    let v = &mut model.list.view;
    match keep {
        Some(row) => v.selected = row,
        None => {
            v.selected = 0;
            v.offset = 0;
        }
    }
    let h = model.list_height();
    model.list.clamp(h);
    if model.list.selected_uuid() != selected {
        selection_changed(model, fx);
    }
    if again {
        recompute_search(model, fx);
    }
}

/// The index's hits (those loaded), best first, then the rows' own
/// matches not among them.
fn merge_hits(store: &crate::tui::model::contact_list::ContactStore, hits: &[String], matches: Vec<u32>) -> Vec<u32> {
    if hits.is_empty() {
        return matches;
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(hits.len() + matches.len());
    for uuid in hits {
        if let Some(i) = store.position(uuid)
            && seen.insert(i as u32)
        {
            out.push(i as u32);
        }
    }
    out.extend(matches.into_iter().filter(|i| !seen.contains(i)));
    out
}

pub(crate) fn clear_search(model: &mut Model, fx: &mut Vec<Effect>) {
    let selected = model.list.selected_uuid();
    if let Some(s) = model.list.view.search.take() {
        s.latest.store(u64::MAX, std::sync::atomic::Ordering::Relaxed); // stops a run
    }
    if let Some(uuid) = selected
        && let Some(row) = model.list.row_of(&uuid)
    {
        model.list.view.selected = row;
    }
    let h = model.list_height();
    model.list.clamp(h);
    let _ = fx;
}
