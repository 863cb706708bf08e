//! Marking contacts: `Space`, `V` (a range that follows the selection),
//! `*` (the whole view) and `Esc`; marks follow the store (a contact no
//! longer loaded loses its mark).

use std::collections::HashSet;

use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::marks::Range;
use crate::tui::model::{Model, ToastKind};

use super::list;

/// `Space`: marks or unmarks the selected contact and moves down.
pub(crate) fn toggle(model: &mut Model, fx: &mut Vec<Effect>) {
    end_range(model);
    let Some(uuid) = model.list.selected_uuid() else {
        let now = model.now;
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    model.marks.toggle(&uuid);
    list::move_selection(model, Action::MoveDown, fx);
}

/// `V`: starts a range at the selection; `V` again keeps it.
pub(crate) fn range(model: &mut Model) {
    if model.marks.range.is_some() {
        return end_range(model);
    }
    let Some(anchor) = model.list.selected_uuid() else {
        let now = model.now;
        return model.status.push(ToastKind::Info, "select a contact first", now);
    };
    let base = model.marks.iter().cloned().collect();
    model.marks.range = Some(Range {
        anchor,
        base,
        seen: None,
    });
    follow(model);
}

/// Ends an open range, keeping what it marked.
pub(crate) fn end_range(model: &mut Model) {
    follow(model);
    model.marks.range = None;
}

/// `*`: marks every row of the view; when all are marked already, unmarks
/// them.
pub(crate) fn all(model: &mut Model) {
    end_range(model);
    let list = &model.list;
    let rows: Vec<String> = (0..list.visible_len())
        .filter_map(|i| list.row(i).map(|r| r.uuid.to_string()))
        .collect();
    if rows.is_empty() {
        let now = model.now;
        return model.status.push(ToastKind::Info, "no contacts to mark", now);
    }
    if rows.iter().all(|u| model.marks.contains(u)) {
        for u in &rows {
            model.marks.remove(u);
        }
    } else {
        for u in &rows {
            model.marks.insert(u);
        }
    }
}

/// `Esc` with marks: drops them all. False when there were none.
pub(crate) fn clear(model: &mut Model) -> bool {
    if model.marks.is_empty() && model.marks.range.is_none() {
        return false;
    }
    model.marks.clear();
    true
}

/// After every message: marks of contacts no longer loaded go, and an
/// open range covers the rows from its anchor to the selection.
pub(crate) fn after_update(model: &mut Model) {
    let version = model.list.store.version();
    if model.marks.checked != version {
        model.marks.checked = version;
        let store = &model.list.store;
        model.marks.retain(|u| store.position(u).is_some());
    }
    follow(model);
}

/// Works the range's marks out again when the selection or the rows moved.
fn follow(model: &mut Model) {
    let Some(range) = model.marks.range.as_ref() else {
        return;
    };
    let list = &model.list;
    let Some(anchor) = list.row_of(&range.anchor) else {
        // The anchor is gone (or out of the search): the range ends as it was.
        model.marks.range = None;
        return;
    };
    let selected = list.view.selected.min(list.visible_len().saturating_sub(1));
    let key = (anchor, selected, list.store.version());
    if range.seen == Some(key) {
        return;
    }
    let mut marked: HashSet<String> = range.base.clone();
    let (lo, hi) = (anchor.min(selected), anchor.max(selected));
    marked.extend((lo..=hi).filter_map(|i| list.row(i).map(|r| r.uuid.to_string())));
    model.marks.set(marked);
    if let Some(r) = model.marks.range.as_mut() {
        r.seen = Some(key);
    }
}
