//! The account tabs' rows: how many show, keeping each tab's cursor on
//! them, and the webhook log's pages.

use ratatui::layout::Rect;

use crate::tui::account::fx::AccountEffect;
use crate::tui::account::state::Open as State;
use crate::tui::account::state::{AccountTab, Remote, Scroll, account_areas};
use crate::tui::shared::{Cx, Out};

type O<'a> = Out<'a, AccountEffect>;

/// Rows of `tab`'s list that fit on a `width`×`height` screen (`toasting`:
/// a toast takes a second row at the bottom).
pub fn visible_rows(width: u16, height: u16, toasting: bool, tab: AccountTab) -> usize {
    let bottom = if toasting { 2 } else { 1 };
    let area = Rect::new(0, 0, width, height.saturating_sub(bottom));
    let a = account_areas(area, tab);
    let rows = match tab {
        // A title line and a header row above the funnels.
        AccountTab::Plan => a.detail.height.saturating_sub(2),
        _ => a.list.height.saturating_sub(1),
    };
    rows.max(1) as usize
}

/// Rows of `tab`'s list that fit on screen now.
pub(super) fn rows_in(cx: &Cx, tab: AccountTab) -> usize {
    visible_rows(cx.width, cx.height, cx.toasting, tab)
}

/// Keeps every selection inside its list after new data.
pub(super) fn clamp_all(st: &mut State, cx: &Cx) {
    let Some(acc) = st.as_mut() else { return };
    for t in AccountTab::ALL {
        let h = rows_in(cx, t);
        let (len, scroll) = acc.list_of(t, cx.catalog);
        scroll.clamp(len, h);
    }
}

pub(crate) fn fetch_events(st: &mut State, out: &mut O) {
    let id = out.id();
    let Some(acc) = st.as_mut() else { return };
    acc.webhooks.events.loading = Some(id);
    let query = acc.webhooks.query();
    out.fx(AccountEffect::FetchEvents { id, query });
}

/// The webhook log from its first page, after a filter changed.
pub(crate) fn restart_log(st: &mut State, out: &mut O) {
    let Some(acc) = st.as_mut() else { return };
    let w = &mut acc.webhooks;
    w.page = 1;
    w.pages = None;
    w.events = Remote::default();
    w.cursor = Scroll::default();
    fetch_events(st, out);
}
