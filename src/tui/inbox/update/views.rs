//! The tabs: switching views, keeping each view's place, and recomputing
//! the current view's rows and every view's count when what they depend on
//! changes (the store, the last messages, the badges, the clock for timed
//! rules). Counting is in `views/count.rs`.

mod count;

use std::collections::HashSet;
use std::sync::Arc;

use super::super::fx::InboxEffect;
use super::super::state::views::{Basis, Place, RowFacts};
use super::super::state::{ContactList, Inbox, Views};
use super::{O, selection};
use crate::triage::{Sort, View, ViewFilter};
use crate::tui::shared::{Cx, ToastKind};

/// How long a lone digit waits for a motion before it switches views.
pub const DIGIT_WAIT: std::time::Duration = std::time::Duration::from_millis(350);

/// What the rows and counts depend on, now.
fn basis(st: &Inbox, cx: &Cx) -> Basis {
    let timed = st
        .views
        .all
        .iter()
        .any(|v| v.filter.older_than.is_some() || v.filter.waiting.is_some_and(|w| !w.is_zero()));
    Basis {
        store: st.list.store.version(),
        previews: st.sync.previews_version ^ (st.sync.previews.len() as u64).rotate_left(32),
        views: st.views.generation,
        badges: st.badges.version,
        minute: if timed { cx.now.timestamp() / 60 } else { 0 },
        complete: complete(st),
    }
}

/// True when the list holds every contact of the account: a whole walk of
/// the index has finished, or (without an index) the API walk reached its
/// end unfiltered.
fn complete(st: &Inbox) -> bool {
    if st.sync.enabled() {
        st.sync.complete()
    } else {
        st.list.paging.exhausted && st.list.filter.is_empty()
    }
}

/// Recomputes the current view's rows and the counts when something they
/// depend on changed; the selection stays on its contact.
pub fn refresh(st: &mut Inbox, cx: &Cx, out: &mut O) {
    // A kept row goes once the selection has moved off where it was kept.
    if st.views.keep_anchor.is_some() && st.views.keep_anchor != st.list.selected_uuid() {
        st.views.keep.clear();
        st.views.keep_anchor = None;
        st.views.moved = None;
        invalidate(st.views);
    }
    let now_basis = basis(st, cx);
    if st.views.basis == Some(now_basis) {
        // Tabs that came on the strip (a resize) get their counts.
        return count::count_shown(st, cx, now_basis.complete);
    }
    st.views.basis = Some(now_basis);
    let before = st.list.selected_uuid();
    let here = place(st.list);
    recompute(st, cx, now_basis.complete, &here);
    // The rows changed under the selection (the first rows arrived, the
    // selected contact left the view): load what is selected now.
    if st.list.selected_uuid() != before {
        if before.is_none() && selection::open(cx, out).is_none() {
            // The first rows: open the first contact at once.
            selection::show_now(st, out);
        } else {
            selection::selection_changed(st, cx, out);
        }
    }
}

/// Forces a recompute on the next refresh.
pub fn invalidate(views: &mut Views) {
    views.generation += 1;
}

/// Where the selection stands now.
fn place(list: &ContactList) -> Place {
    Place {
        uuid: list.selected_uuid(),
        selected: list.view.selected,
        offset: list.view.offset,
    }
}

/// The current view's rows and the counts the screen shows, computed
/// again; the selection goes to `follow`: on its contact at the same height
/// on screen, or (a contact that left the view) where it stood.
fn recompute(st: &mut Inbox, cx: &Cx, complete: bool, follow: &Place) {
    st.views.counted.iter_mut().for_each(|c| *c = false);
    st.views.counted.resize(st.views.all.len(), false);
    count::count_shown(st, cx, complete);
    let searching = st.list.view.searched().is_some();
    let views = &*st.views;
    let me = views.me.as_deref();
    let now = cx.now;
    let everything = views.shows_everything();
    let mut rows: Vec<u32> = Vec::new();
    let mut greyed: HashSet<Arc<str>> = HashSet::new();
    if !everything {
        let filter = &views.current().filter;
        for (i, row) in st.list.store.iter().enumerate() {
            if filter.matches(&RowFacts::badged(row, st.badges), me, now) {
                rows.push(i as u32);
            } else if views.keep.contains(&row.uuid) {
                rows.push(i as u32);
                greyed.insert(row.uuid.clone());
            }
        }
    }
    let sort = views.current().sort;
    if !everything && sort != Sort::Activity {
        let store = &st.list.store;
        let facts: Vec<RowFacts> = rows
            .iter()
            .filter_map(|&i| store.get(i as usize))
            .map(|r| RowFacts::badged(r, st.badges))
            .collect();
        let mut order: Vec<usize> = (0..facts.len()).collect();
        crate::triage::sort_positions(&mut order, &facts, sort);
        rows = order.iter().map(|&p| rows[p]).collect();
    }
    st.views.greyed = greyed;
    let store = &st.list.store;
    st.list.view.rows = (!everything).then(|| {
        rows.iter()
            .filter_map(|&i| store.get(i as usize).map(|r| r.uuid.clone()))
            .collect()
    });
    if searching {
        return;
    }
    let list = &mut *st.list;
    (list.view.selected, list.view.offset) = (follow.selected, follow.offset);
    if let Some(row) = follow.uuid.as_deref().and_then(|u| list.row_of(u)) {
        let on_screen = follow.selected.saturating_sub(follow.offset);
        list.view.selected = row;
        list.view.offset = row.saturating_sub(on_screen);
    }
    list.clamp(cx.list_rows());
}

/// Shows view `i`: its rows at once, where its selection last stood.
pub fn switch(st: &mut Inbox, cx: &Cx, out: &mut O, i: usize) {
    if i >= st.views.all.len() {
        let n = st.views.all.len();
        return out.toast(ToastKind::Info, format!("there are {n} views"));
    }
    if i == st.views.current && st.list.view.searched().is_none() {
        return;
    }
    if let Some(s) = st.list.view.search.take() {
        s.latest.store(u64::MAX, std::sync::atomic::Ordering::Relaxed);
    }
    let from = st.views.current;
    let here = place(st.list);
    if let Some(p) = st.views.places.get_mut(from) {
        *p = here;
    }
    st.views.current = i;
    st.views.keep.clear();
    st.views.keep_anchor = None;
    invalidate(st.views);
    // Rows at once, with the selection where it stood in that view.
    let to = st.views.places.get(i).cloned().unwrap_or_default();
    let b = basis(st, cx);
    st.views.basis = Some(b);
    recompute(st, cx, b.complete, &to);
    if let Some(why) = st.views.current().why_empty(st.views.me.as_deref()) {
        out.toast(ToastKind::Info, why);
    }
    selection::selection_changed(st, cx, out);
}

/// Selects `uuid` now: in the current view when it is there, else in All.
pub fn select(st: &mut Inbox, cx: &Cx, out: &mut O, uuid: &str) {
    invalidate(st.views);
    refresh(st, cx, out);
    if st.list.row_of(uuid).is_none()
        && st.list.view.searched().is_none()
        && let Some(all) = st.views.all.iter().position(|v| v.name == "All")
    {
        switch(st, cx, out, all);
    }
    if let Some(row) = st.list.row_of(uuid) {
        st.list.view.selected = row;
        st.list.clamp(cx.list_rows());
    }
}

/// `]` and `[`: the next or previous view, round.
pub fn step(st: &mut Inbox, cx: &Cx, out: &mut O, forward: bool) {
    let n = st.views.all.len();
    if n == 0 {
        return;
    }
    let i = if forward {
        (st.views.current + 1) % n
    } else {
        (st.views.current + n - 1) % n
    };
    switch(st, cx, out, i);
}

/// The contact the agent is reading left the current view by someone
/// else's change (a colleague took or closed it): its row stays, greyed and
/// marked, until the agent moves, so the selection and thread do not jump.
pub(super) fn keep_moved(st: &mut Inbox, cx: &Cx) {
    let Some(uuid) = st.list.selected_uuid() else { return };
    if st.views.shows_everything() || st.list.view.searched().is_some() || st.views.keep.contains(uuid.as_str()) {
        return;
    }
    let listed = st
        .list
        .view
        .rows
        .as_ref()
        .is_some_and(|r| r.iter().any(|u| **u == *uuid));
    let Some(row) = st.list.store.by_id(&uuid).filter(|_| listed) else {
        return;
    };
    let me = st.views.me.as_deref();
    if st
        .views
        .current()
        .filter
        .matches(&RowFacts::badged(row, st.badges), me, cx.now)
    {
        return;
    }
    let mine = |a: &str| me.is_some_and(|m| m.eq_ignore_ascii_case(a));
    let label = match row.assigned_user.as_deref().filter(|a| !a.trim().is_empty()) {
        _ if !row.is_open() => "moved: closed".to_string(),
        Some(a) if mine(a) => "moved to Mine".to_string(),
        Some(a) => format!("moved to Mine of {a}"),
        None => format!("moved out of {}", st.views.current().name),
    };
    st.views.moved = Some((row.uuid.clone(), label));
    keep(st.views, st.list, &uuid);
}

/// The agent's own write on `uuid`: if it takes the contact out of the
/// view, its row stays (greyed) until the selection moves.
pub fn keep(views: &mut Views, list: &ContactList, uuid: &str) {
    let Some(row) = list.store.by_id(uuid) else {
        return;
    };
    views.keep.insert(row.uuid.clone());
    if views.keep_anchor.is_none() {
        views.keep_anchor = list.selected_uuid();
    }
    invalidate(views);
}

/// The filter form's answer (`f`): the current view shows `filter` for
/// this session; with a `name`, it is also saved as a view of the config
/// file and shown as its tab. `Err`: what the form says instead.
pub fn apply_filter(
    st: &mut Inbox,
    cx: &Cx,
    out: &mut O,
    mut filter: ViewFilter,
    name: Option<String>,
) -> Result<(), String> {
    // The form has no row for a badge: a Snoozed view stays Snoozed.
    filter.badge = st.views.current().filter.badge.clone();
    let Some(name) = name else {
        let i = st.views.current;
        let view = &mut st.views.all[i];
        let waiting_changed = view.filter.waiting.is_some() != filter.waiting.is_some();
        view.filter = filter;
        if waiting_changed {
            view.sort = View::new(&view.name, view.filter.clone()).sort;
        }
        invalidate(st.views);
        let current = st.views.current();
        out.toast(
            ToastKind::Info,
            format!("{}: {}", current.name, current.filter.describe()),
        );
        return Ok(());
    };
    if let Some(b) = crate::triage::builtin_views().iter().find(|b| b.is_named(&name)) {
        return Err(format!("{} is a built-in view: save under another name", b.name));
    }
    let Some(path) = st.views.config_path.clone() else {
        return Err("there is no config file to save into: set FRONTDESK_CONFIG or --config".into());
    };
    let view = View::new(&name, filter);
    // The edited view goes back to what it was; the new one takes its tab.
    let from = st.views.current;
    if let Some(s) = st.views.saved.get(from).cloned() {
        st.views.all[from] = s;
    }
    let i = match st.views.all.iter().position(|v| v.is_named(&name)) {
        Some(i) => {
            st.views.all[i] = view.clone();
            i
        }
        None => st.views.push(view.clone()),
    };
    invalidate(st.views);
    switch(st, cx, out, i);
    out.toast(
        ToastKind::Info,
        format!("saving the view {}…", crate::tui::widgets::clean(&name)),
    );
    out.fx(InboxEffect::SaveView {
        path,
        view: Box::new(view),
    });
    Ok(())
}

/// The config file took the view (or did not: the view stays for the
/// session, and the toast says why).
pub fn saved(views: &mut Views, out: &mut O, name: &str, result: Result<(), String>) {
    let shown = crate::tui::widgets::clean(name);
    match result {
        Ok(()) => {
            if let Some(i) = views.all.iter().position(|v| v.is_named(name))
                && let Some(s) = views.saved.get_mut(i)
            {
                *s = views.all[i].clone();
            }
            out.toast(ToastKind::Success, format!("view {shown} saved"));
        }
        Err(e) => out.toast(
            ToastKind::Error,
            format!(
                "could not save the view {shown}: {} (it stays for this session)",
                crate::tui::text::sanitize_line(&e)
            ),
        ),
    }
}
