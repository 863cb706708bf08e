//! The tabs: switching views, keeping each view's place, and recomputing
//! the current view's rows and every view's count when what they depend on
//! changes (the store, the last messages, the clock for timed rules).

use crate::tui::inbox::InboxEffect;
use std::collections::HashSet;
use std::sync::Arc;

use crate::triage::{Sort, Subject};
use crate::tui::effect::Effect;
use crate::tui::model::Model;
use crate::tui::model::views::{Basis, Count, Place, RowFacts};

use super::notes::selection_changed;

/// How long a lone digit waits for a motion before it switches views.
pub(crate) const DIGIT_WAIT: std::time::Duration = std::time::Duration::from_millis(350);

/// What the rows and counts depend on, now.
fn basis(model: &Model) -> Basis {
    let timed = model
        .views
        .all
        .iter()
        .any(|v| v.filter.older_than.is_some() || v.filter.waiting.is_some_and(|w| !w.is_zero()));
    Basis {
        store: model.list.store.version(),
        previews: model.sync.previews_version ^ (model.sync.previews.len() as u64).rotate_left(32),
        views: model.views.generation,
        badges: model.badges.version,
        minute: if timed { model.now.timestamp() / 60 } else { 0 },
        complete: complete(model),
    }
}

/// True when the list holds every contact of the account: a whole walk of
/// the index has finished, or (without an index) the API walk reached its
/// end unfiltered.
fn complete(model: &Model) -> bool {
    if model.sync.enabled() {
        model.sync.complete()
    } else {
        model.list.paging.exhausted && model.list.filter.is_empty()
    }
}

/// Recomputes the current view's rows and the counts when something they
/// depend on changed; the selection stays on its contact.
pub(crate) fn refresh(model: &mut Model, fx: &mut Vec<Effect>) {
    // A kept row goes once the selection has moved off where it was kept.
    if model.views.keep_anchor.is_some() && model.views.keep_anchor != model.list.selected_uuid() {
        model.views.keep.clear();
        model.views.keep_anchor = None;
        invalidate(model);
    }
    let now_basis = basis(model);
    if model.views.basis == Some(now_basis) {
        // Tabs that came on the strip (a resize) get their counts.
        return count_shown(model, now_basis.complete);
    }
    model.views.basis = Some(now_basis);
    let before = model.list.selected_uuid();
    let here = place(model);
    recompute(model, now_basis.complete, &here);
    // The rows changed under the selection (the first rows arrived, the
    // selected contact left the view): load what is selected now.
    if model.list.selected_uuid() != before {
        if before.is_none() && model.thread.contact.is_none() {
            // The first rows: open the first contact at once.
            super::select::load_selected(model, fx);
        } else {
            selection_changed(model, fx);
        }
    }
}

/// Forces a recompute on the next refresh.
pub(crate) fn invalidate(model: &mut Model) {
    model.views.generation += 1;
}

/// Where the selection stands now.
fn place(model: &Model) -> Place {
    Place {
        uuid: model.list.selected_uuid(),
        selected: model.list.view.selected,
        offset: model.list.view.offset,
    }
}

/// The current view's rows and the counts the screen shows, computed
/// again; the selection goes to `follow`: on its contact at the same height
/// on screen, or (a contact that left the view) where it stood.
fn recompute(model: &mut Model, complete: bool, follow: &Place) {
    model.views.counted.iter_mut().for_each(|c| *c = false);
    model.views.counted.resize(model.views.all.len(), false);
    count_shown(model, complete);
    let searching = model.list.view.searched().is_some();
    let views = &model.views;
    let me = views.me.as_deref();
    let now = model.now;
    let everything = views.shows_everything();
    let mut rows: Vec<u32> = Vec::new();
    let mut greyed: HashSet<Arc<str>> = HashSet::new();
    if !everything {
        let filter = &views.current().filter;
        for (i, row) in model.list.store.iter().enumerate() {
            if filter.matches(&RowFacts::badged(row, &model.badges), me, now) {
                rows.push(i as u32);
            } else if views.keep.contains(&row.uuid) {
                rows.push(i as u32);
                greyed.insert(row.uuid.clone());
            }
        }
    }
    let sort = views.current().sort;
    if !everything && sort != Sort::Activity {
        let store = &model.list.store;
        let facts: Vec<RowFacts> = rows
            .iter()
            .filter_map(|&i| store.get(i as usize))
            .map(|r| RowFacts::badged(r, &model.badges))
            .collect();
        let mut order: Vec<usize> = (0..facts.len()).collect();
        crate::triage::sort_positions(&mut order, &facts, sort);
        rows = order.iter().map(|&p| rows[p]).collect();
    }
    model.views.greyed = greyed;
    let store = &model.list.store;
    model.list.view.rows = (!everything).then(|| {
        rows.iter()
            .filter_map(|&i| store.get(i as usize).map(|r| r.uuid.clone()))
            .collect()
    });
    if searching {
        return;
    }
    let v = &mut model.list.view;
    (v.selected, v.offset) = (follow.selected, follow.offset);
    if let Some(row) = follow.uuid.as_deref().and_then(|u| model.list.row_of(u)) {
        let on_screen = follow.selected.saturating_sub(follow.offset);
        model.list.view.selected = row;
        model.list.view.offset = row.saturating_sub(on_screen);
    }
    let h = model.list_height();
    model.list.clamp(h);
}

/// How many views are built in (first in `Views::all`): always counted,
/// the title shows Waiting's.
fn builtins() -> usize {
    crate::triage::builtin_views().len()
}

/// The strip's inner width: the list pane's, less its borders.
fn strip_width(model: &Model) -> usize {
    let w = model.areas().list.map_or(model.width, |r| r.width);
    usize::from(w.saturating_sub(2))
}

/// Counts the views the screen shows that are not counted yet: the
/// strip's tabs, the current view and the built-ins. A count can widen a
/// tab and shift the strip, so until none is left (a few rounds at most).
fn count_shown(model: &mut Model, complete: bool) {
    let w = strip_width(model);
    for _ in 0..4 {
        let views = &model.views;
        let win = crate::tui::inbox::tabs::window(views, w);
        let mut wanted: Vec<usize> = (0..builtins().min(views.all.len()))
            .chain(win.start..win.end)
            .chain([views.current])
            .filter(|&i| i < views.all.len() && !views.counted.get(i).copied().unwrap_or(false))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() {
            return;
        }
        count(model, &wanted, complete);
    }
}

/// Counts views `which` over the loaded contacts in one pass.
fn count(model: &mut Model, which: &[usize], complete: bool) {
    let views = &model.views;
    let me = views.me.as_deref();
    let now = model.now;
    let mut counts = vec![0usize; which.len()];
    let mut unsure = vec![false; which.len()];
    for row in model.list.store.iter() {
        let f = RowFacts::badged(row, &model.badges);
        for (k, &i) in which.iter().enumerate() {
            let v = &views.all[i];
            if v.filter.matches(&f, me, now) {
                counts[k] += 1;
            } else if v.filter.needs_last_message()
                && !unsure[k]
                && !f.closed()
                && f.last_who().is_none()
                && v.filter.matches_but_waiting(&f, me, now)
            {
                // Who wrote last is not known yet: it may belong.
                unsure[k] = true;
            }
        }
    }
    let views = &mut model.views;
    views.counts.resize(views.all.len(), Count::default());
    views.counted.resize(views.all.len(), false);
    for (k, &i) in which.iter().enumerate() {
        views.counts[i] = Count {
            n: counts[k],
            at_least: !complete || unsure[k],
        };
        views.counted[i] = true;
    }
}

/// Shows view `i`: its rows at once, where its selection last stood.
pub(crate) fn switch(model: &mut Model, i: usize, fx: &mut Vec<Effect>) {
    let now = model.now;
    if i >= model.views.all.len() {
        let n = model.views.all.len();
        return model
            .status
            .push(crate::tui::model::ToastKind::Info, format!("there are {n} views"), now);
    }
    if i == model.views.current && model.list.view.searched().is_none() {
        return;
    }
    if let Some(s) = model.list.view.search.take() {
        s.latest.store(u64::MAX, std::sync::atomic::Ordering::Relaxed);
    }
    let from = model.views.current;
    let here = place(model);
    if let Some(p) = model.views.places.get_mut(from) {
        *p = here;
    }
    model.views.current = i;
    model.views.keep.clear();
    model.views.keep_anchor = None;
    invalidate(model);
    // Rows at once, with the selection where it stood in that view.
    let to = model.views.places.get(i).cloned().unwrap_or_default();
    let b = basis(model);
    model.views.basis = Some(b);
    recompute(model, b.complete, &to);
    if let Some(why) = model.views.current().why_empty(model.views.me.as_deref()) {
        model.status.push(crate::tui::model::ToastKind::Info, why, now);
    }
    selection_changed(model, fx);
}

/// Selects `uuid` now: in the current view when it is there, else in All.
pub(crate) fn select(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    invalidate(model);
    refresh(model, fx);
    if model.list.row_of(uuid).is_none()
        && model.list.view.searched().is_none()
        && let Some(all) = model.views.all.iter().position(|v| v.name == "All")
    {
        switch(model, all, fx);
    }
    if let Some(row) = model.list.row_of(uuid) {
        model.list.view.selected = row;
        let h = model.list_height();
        model.list.clamp(h);
    }
}

/// `]` and `[`: the next or previous view, round.
pub(crate) fn step(model: &mut Model, forward: bool, fx: &mut Vec<Effect>) {
    let n = model.views.all.len();
    if n == 0 {
        return;
    }
    let i = if forward {
        (model.views.current + 1) % n
    } else {
        (model.views.current + n - 1) % n
    };
    switch(model, i, fx);
}

/// The agent's own write on `uuid`: if it takes the contact out of the
/// view, its row stays (greyed) until the selection moves.
pub(crate) fn keep(model: &mut Model, uuid: &str) {
    let Some(row) = model.list.store.by_id(uuid) else {
        return;
    };
    let id = row.uuid.clone();
    model.views.keep.insert(id);
    if model.views.keep_anchor.is_none() {
        model.views.keep_anchor = model.list.selected_uuid();
    }
    invalidate(model);
}

/// `f`: the current view's filter as a form.
pub(crate) fn open_filter(model: &mut Model) {
    let k = &model.known;
    let form =
        crate::tui::form::view_filter_form(model.views.current(), &k.sources, &k.tags, &k.collaborators, &k.teams);
    model.overlay = Some(crate::tui::model::Overlay::Form {
        kind: crate::tui::model::FormKind::View,
        uuid: String::new(),
        form,
        saving: None,
    });
}

/// The filter form was submitted: the current view shows the new filter
/// for this session; with a name, it is also saved as a view of the config
/// file and shown as its tab.
pub(crate) fn submit_filter(model: &mut Model, form: &crate::tui::form::Form, fx: &mut Vec<Effect>) {
    use crate::tui::model::{Overlay, ToastKind};
    let now = model.now;
    let (filter, name) = match crate::tui::form::view_filter_value(form, &model.known.teams) {
        // The form has no row for a badge: a Snoozed view stays Snoozed.
        Ok((mut filter, name)) => {
            filter.badge = model.views.current().filter.badge.clone();
            (filter, name)
        }
        Err(e) => {
            if let Some(Overlay::Form { form, .. }) = model.overlay.as_mut() {
                form.set_error(e);
            }
            return;
        }
    };
    let Some(name) = name else {
        model.overlay = None;
        let i = model.views.current;
        let view = &mut model.views.all[i];
        let waiting_changed = view.filter.waiting.is_some() != filter.waiting.is_some();
        view.filter = filter;
        if waiting_changed {
            view.sort = crate::triage::View::new(&view.name, view.filter.clone()).sort;
        }
        invalidate(model);
        return model.status.push(
            ToastKind::Info,
            format!(
                "{}: {}",
                model.views.current().name,
                model.views.current().filter.describe()
            ),
            now,
        );
    };
    if let Some(b) = crate::triage::builtin_views().iter().find(|b| b.is_named(&name)) {
        if let Some(Overlay::Form { form, .. }) = model.overlay.as_mut() {
            form.set_error(format!("{} is a built-in view: save under another name", b.name));
        }
        return;
    }
    let Some(path) = model.views.config_path.clone() else {
        if let Some(Overlay::Form { form, .. }) = model.overlay.as_mut() {
            form.set_error("there is no config file to save into: set FRONTDESK_CONFIG or --config");
        }
        return;
    };
    model.overlay = None;
    let view = crate::triage::View::new(&name, filter);
    // The edited view goes back to what it was; the new one takes its tab.
    let from = model.views.current;
    if let Some(s) = model.views.saved.get(from).cloned() {
        model.views.all[from] = s;
    }
    let i = match model.views.all.iter().position(|v| v.is_named(&name)) {
        Some(i) => {
            model.views.all[i] = view.clone();
            i
        }
        None => model.views.push(view.clone()),
    };
    invalidate(model);
    switch(model, i, fx);
    model.status.push(
        ToastKind::Info,
        format!("saving the view {}…", crate::tui::widgets::clean(&name)),
        now,
    );
    fx.push(Effect::Inbox(InboxEffect::SaveView {
        path,
        view: Box::new(view),
    }));
}

/// The config file took the view (or did not: the view stays for the
/// session, and the toast says why).
pub(crate) fn saved(model: &mut Model, name: &str, result: Result<(), String>) {
    use crate::tui::model::ToastKind;
    let now = model.now;
    let shown = crate::tui::widgets::clean(name);
    match result {
        Ok(()) => {
            if let Some(i) = model.views.all.iter().position(|v| v.is_named(name))
                && let Some(s) = model.views.saved.get_mut(i)
            {
                *s = model.views.all[i].clone();
            }
            model
                .status
                .push(ToastKind::Success, format!("view {shown} saved"), now);
        }
        Err(e) => model.status.push(
            ToastKind::Error,
            format!(
                "could not save the view {shown}: {} (it stays for this session)",
                crate::tui::text::sanitize_line(&e)
            ),
            now,
        ),
    }
}
