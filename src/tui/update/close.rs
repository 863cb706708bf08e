//! One contact closed or reopened at once (optimistic), for `c`
//! (`actions`) and a question's `y` (`owner`). Below everything that calls
//! a slice (`call!`): `notes`, which `call!` routes through, reaches it
//! through `owner`.

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::tui::effect::Effect;
use crate::tui::inbox::update::views;
use crate::tui::model::{Model, PendingWrite};
use crate::tui::msg::WriteKind;

/// Closes or reopens `c` at once (optimistic), checked by `guard`.
pub(crate) fn close_or_reopen(
    model: &mut Model,
    c: Contact,
    action: Action,
    guard: Option<Box<crate::tui::act::Guard>>,
    fx: &mut Vec<Effect>,
) {
    let now = model.now;
    let id = model.next_id();
    let closing = action == Action::Close;
    let kind = if closing { WriteKind::Close } else { WriteKind::Reopen };
    let closed_at = if closing { Some(now) } else { None };
    // If it leaves the view, its row stays (greyed) until the selection
    // moves: the list does not jump under the cursor.
    views::keep(&mut model.views, &model.list, &c.uuid);
    model.list.store.update(&c.uuid, |row| {
        row.closed_at = closed_at;
        row.state_unknown = false;
    });
    if let Some(full) = model.details.full.as_mut().filter(|f| f.uuid == c.uuid) {
        full.set_closed_at(closed_at);
    }
    model.list.pending.insert(
        c.uuid.clone(),
        PendingWrite {
            id,
            kind,
            before: Some(c.clone()),
        },
    );
    super::record::will_write(model, id, action.clone(), c.clone(), None);
    model.act.writes.insert(id, action.clone());
    fx.push(Effect::Apply {
        id,
        uuid: c.uuid.clone(),
        action,
        guard,
    });
}
