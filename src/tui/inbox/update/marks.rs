//! Marking contacts: `Space`, `V` (a range that follows the selection),
//! `*` (the whole view) and `Esc`; marks follow the store (a contact no
//! longer loaded loses its mark).

use std::collections::HashSet;

use super::super::fx::InboxEffect;
use super::super::state::contact_list::Row;
use super::super::state::marks::{Marks, Range};
use super::super::state::{ContactList, Inbox};
use crate::triage::bulk::Action;
use crate::tui::shared::{Cx, Out, ToastKind};

type O<'a> = Out<'a, InboxEffect>;

/// `Space`: marks or unmarks the selected contact; true when it did (the
/// root then moves the selection down).
pub fn toggle(st: &mut Inbox, _cx: &Cx, out: &mut O) -> bool {
    end_range(st.marks, st.list);
    let Some(uuid) = st.list.selected_uuid() else {
        out.toast(ToastKind::Info, "select a contact first");
        return false;
    };
    st.marks.toggle(&uuid);
    true
}

/// `V`: starts a range at the selection; `V` again keeps it.
pub fn range(st: &mut Inbox, _cx: &Cx, out: &mut O) {
    if st.marks.range.is_some() {
        return end_range(st.marks, st.list);
    }
    let Some(anchor) = st.list.selected_uuid() else {
        return out.toast(ToastKind::Info, "select a contact first");
    };
    let base = st.marks.iter().cloned().collect();
    st.marks.chosen = None;
    st.marks.range = Some(Range {
        anchor,
        base,
        seen: None,
    });
    follow(st.marks, st.list);
}

/// Ends an open range, keeping what it marked.
pub fn end_range(marks: &mut Marks, list: &ContactList) {
    follow(marks, list);
    marks.range = None;
}

/// `*`: marks every row of the view; when all are marked already, unmarks
/// them.
pub fn all(st: &mut Inbox, _cx: &Cx, out: &mut O) {
    end_range(st.marks, st.list);
    let list = &*st.list;
    let rows: Vec<String> = (0..list.visible_len())
        .filter_map(|i| list.row(i).map(|r| r.uuid.to_string()))
        .collect();
    if rows.is_empty() {
        return out.toast(ToastKind::Info, "no contacts to mark");
    }
    if rows.iter().all(|u| st.marks.contains(u)) {
        for u in &rows {
            st.marks.remove(u);
        }
        if st.marks.is_empty() {
            st.marks.chosen = None;
        }
    } else {
        let fresh = st.marks.is_empty();
        for u in &rows {
            st.marks.insert(u);
        }
        // Chosen by the view's rules (not All, which has none; a badge is
        // the TUI's own and the service cannot tell it).
        let mut filter = st.views.current().filter.clone();
        filter.badge = None;
        st.marks.chosen = (fresh && filter != crate::triage::ViewFilter::default()).then_some(filter);
    }
}

/// `Esc` with marks: drops them all. False when there were none.
pub fn clear(marks: &mut Marks) -> bool {
    if marks.is_empty() && marks.range.is_none() {
        return false;
    }
    marks.clear();
    true
}

/// After every message: marks of contacts no longer loaded go, and an
/// open range covers the rows from its anchor to the selection.
pub fn after_update(marks: &mut Marks, list: &ContactList) {
    let version = list.store.version();
    if marks.checked != version {
        marks.checked = version;
        let store = &list.store;
        marks.retain(|u| store.position(u).is_some());
    }
    follow(marks, list);
}

/// Works the range's marks out again when the selection or the rows moved.
fn follow(marks: &mut Marks, list: &ContactList) {
    let Some(range) = marks.range.as_ref() else {
        return;
    };
    let Some(anchor) = list.row_of(&range.anchor) else {
        // The anchor is gone (or out of the search): the range ends as it was.
        marks.range = None;
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
    marks.set(marked);
    if let Some(r) = marks.range.as_mut() {
        r.seen = Some(key);
    }
}

/// The marked rows, in list order.
pub fn marked<'a>(list: &'a ContactList, marks: &Marks) -> Vec<&'a Row> {
    list.store.iter().filter(|r| marks.contains(&r.uuid)).collect()
}

/// `c` (or `C`, `only_close`) on marks: closes the open ones; when every
/// marked conversation is closed already, reopens them (`C`: says so).
pub fn close_or_reopen(list: &ContactList, marks: &Marks, only_close: bool) -> Result<Action, String> {
    let rows = marked(list, marks);
    let (count, open) = (rows.len(), rows.iter().filter(|r| r.is_open()).count());
    if open == 0 && only_close {
        return Err(format!("all {count} marked conversations are closed already"));
    }
    Ok(if open > 0 || only_close {
        Action::Close
    } else {
        Action::Reopen
    })
}

/// A run on marks starts: marked contacts already as asked lose their mark
/// (there is nothing to retry on them), and `.` will repeat `actions`.
pub fn ran(marks: &mut Marks, actions: Vec<Action>, doing: &str, already: &[String]) {
    for uuid in already {
        marks.remove(uuid);
    }
    marks.last = actions;
    marks.last_doing = doing.to_string();
}
