//! The account tabs' rows: how many show, keeping each tab's cursor on
//! them, and the webhook log's pages.

use ratatui::layout::Rect;

use crate::tui::effect::Effect;
use crate::tui::effect::account::AccountEffect;
use crate::tui::model::Model;
use crate::tui::model::account::{AccountTab, Remote, Scroll, account_areas};

/// Rows of the current tab's list that fit on screen.
pub fn visible_rows(model: &Model, tab: AccountTab) -> usize {
    let bottom = if model.status.current().is_some() { 2 } else { 1 };
    let area = Rect::new(0, 0, model.width, model.height.saturating_sub(bottom));
    let a = account_areas(area, tab);
    let rows = match tab {
        // A title line and a header row above the funnels.
        AccountTab::Plan => a.detail.height.saturating_sub(2),
        _ => a.list.height.saturating_sub(1),
    };
    rows.max(1) as usize
}

/// Keeps every selection inside its list after new data.
pub(crate) fn clamp_all(model: &mut Model) {
    let heights: Vec<usize> = AccountTab::ALL.iter().map(|t| visible_rows(model, *t)).collect();
    let Some(acc) = model.account.as_mut() else { return };
    for (t, h) in AccountTab::ALL.iter().zip(heights) {
        let (len, scroll) = acc.list_of(*t, &model.catalog);
        scroll.clamp(len, h);
    }
}

pub(crate) fn fetch_events(model: &mut Model, fx: &mut Vec<Effect>) {
    let id = model.next_id();
    let Some(acc) = model.account.as_mut() else { return };
    acc.webhooks.events.loading = Some(id);
    let query = acc.webhooks.query();
    fx.push(Effect::Account(AccountEffect::FetchEvents { id, query }));
}

/// The webhook log from its first page, after a filter changed.
pub(crate) fn restart_log(model: &mut Model, fx: &mut Vec<Effect>) {
    let Some(acc) = model.account.as_mut() else { return };
    let w = &mut acc.webhooks;
    w.page = 1;
    w.pages = None;
    w.events = Remote::default();
    w.cursor = Scroll::default();
    fetch_events(model, fx);
}
