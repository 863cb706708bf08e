//! Counting views over the loaded contacts: the strip's tabs, the current
//! view and the built-ins, as they come on screen.

use super::super::super::state::Inbox;
use super::super::super::state::views::{Count, RowFacts};
use crate::triage::Subject;
use crate::tui::shared::Cx;

/// How many views are built in (first in `Views::all`): always counted,
/// the title shows Waiting's.
fn builtins() -> usize {
    crate::triage::builtin_views().len()
}

/// The strip's inner width: the list pane's, less its borders.
fn strip_width(cx: &Cx) -> usize {
    let w = cx.areas.list.map_or(cx.width, |r| r.width);
    usize::from(w.saturating_sub(2))
}

/// Counts the views the screen shows that are not counted yet: the
/// strip's tabs, the current view and the built-ins. A count can widen a
/// tab and shift the strip, so until none is left (a few rounds at most).
pub(super) fn count_shown(st: &mut Inbox, cx: &Cx, complete: bool) {
    let w = strip_width(cx);
    for _ in 0..4 {
        let views = &*st.views;
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
        count(st, cx, &wanted, complete);
    }
}

/// Counts views `which` over the loaded contacts in one pass.
fn count(st: &mut Inbox, cx: &Cx, which: &[usize], complete: bool) {
    let views = &*st.views;
    let me = views.me.as_deref();
    let now = cx.now;
    let mut counts = vec![0usize; which.len()];
    let mut unsure = vec![false; which.len()];
    for row in st.list.store.iter() {
        let f = RowFacts::badged(row, st.badges);
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
            } else if !unsure[k] && v.filter.may_match_unknown_state(&f, me, now) {
                // Whether it is open is not known yet: it may belong.
                unsure[k] = true;
            }
        }
    }
    let views = &mut *st.views;
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
