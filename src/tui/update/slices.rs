//! The registry's routing (see `tui/slices.rs`): a registered slice's
//! messages, the keys its screen takes, the inbox's actions it answers,
//! the tick and start-up, each called through `call!` with its `Cx`.

use crossterm::event::KeyEvent;

use super::call::call;
use crate::tui::effect::Effect;
use crate::tui::keymap::Action;
use crate::tui::model::Model;
use crate::tui::slices::{SliceEffect, SliceMsg};
use crate::tui::{notify, reports, snooze};

fn reports_fx(e: reports::ReportsEffect) -> Effect {
    Effect::Slice(SliceEffect::Reports(e))
}

fn snooze_fx(e: snooze::SnoozeEffect) -> Effect {
    Effect::Slice(SliceEffect::Snooze(e))
}

fn notify_fx(e: notify::NotifyEffect) -> Effect {
    Effect::Slice(SliceEffect::Notify(e))
}

/// An answer to one of a slice's effects.
pub(crate) fn on_msg(model: &mut Model, msg: SliceMsg, fx: &mut Vec<Effect>) {
    match msg {
        SliceMsg::Reports(m) => reports::on_msg(&mut model.slices.reports, m),
        SliceMsg::Snooze(m) => call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::on_msg(
            st, cx, out, m
        )),
        SliceMsg::Notify(m) => call!(model, fx, slices.notify, notify_fx, |_st, _cx, out| notify::on_msg(
            out, m
        )),
    }
}

/// A key while a slice's screen or picker is open: `true` when it took the
/// key (else the inbox's keys go on).
pub(crate) fn key(model: &mut Model, key: KeyEvent, fx: &mut Vec<Effect>) -> bool {
    if model.slices.notify.picker.is_some() {
        return call!(model, fx, slices.notify, notify_fx, |st, cx, out| notify::key(
            st, cx, out, key
        ));
    }
    if model.slices.snooze.picker.is_some() {
        return call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::key(
            st, cx, out, key
        ));
    }
    if model.slices.reports.open {
        return call!(model, fx, slices.reports, reports_fx, |st, cx, out| reports::key(
            st, cx, out, key
        ));
    }
    false
}

/// One of the inbox's keymap actions that a slice answers: `true` when
/// one did.
pub(crate) fn action(model: &mut Model, action: Action, fx: &mut Vec<Effect>) -> bool {
    match action {
        Action::Reports => call!(model, fx, slices.reports, reports_fx, |st, cx, out| reports::open(
            st, cx, out
        )),
        Action::Snooze => call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::open(
            st, cx, out
        )),
        // `u` right after a snooze takes the snooze back.
        Action::Undo => {
            if !call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| {
                let claims = snooze::claims_undo(st, cx);
                if claims {
                    snooze::undo(st, cx, out);
                }
                claims
            }) {
                return false;
            }
        }
        Action::Notifications => notify::open(&mut model.slices.notify),
        _ => return false,
    }
    true
}

/// Time passed (every `Msg::Tick`): a slice's timers come due.
pub(crate) fn tick(model: &mut Model, fx: &mut Vec<Effect>) {
    model.colleagues.expire(model.now);
    // The composer (not a registered slice) looks whether another process
    // wrote a draft.
    if model.compose.kept.check_due(model.now) {
        call!(model, fx, compose, Effect::Compose, |st, cx, out| {
            crate::tui::compose::tick(st, cx, out)
        });
    }
    // Nothing asleep or marked, and no look at the kept file due: no
    // context to build on every tick.
    let snooze = &model.slices.snooze;
    if snooze.is_idle() && !snooze.check_due(model.now) && !snooze.reload_due(model.now) {
        return;
    }
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::tick(
        st, cx, out
    ));
}

/// Once at start, after the config is read: a slice loads what it keeps
/// and adds its views.
pub(crate) fn startup(model: &mut Model, fx: &mut Vec<Effect>) {
    // Breaching: after the built-in views, when a `breach_after` is set
    // (the top level's or a view's own).
    if !model.views.all.iter().any(|v| v.is_named(crate::triage::BREACHING))
        && let Some(view) = crate::triage::breaching_view_of(model.views.thresholds.breach, &model.views.all)
    {
        let at = crate::triage::builtin_views().len();
        model.views.insert(at, view);
    }
    if !model.views.all.iter().any(|v| v.is_named(&snooze::view().name)) {
        model.views.push(snooze::view());
    }
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::startup(
        st, cx, out
    ));
}

/// The facts the notification rules read about `uuid` now.
fn arrival(model: &Model, uuid: &str) -> Option<notify::Arrival> {
    use crate::tui::shared::Contacts;
    let row = model.list.get(uuid)?;
    let me = model.views.me.as_deref();
    let facts = crate::tui::inbox::views::RowFacts::badged(row, &model.badges);
    let mine = me.is_some_and(|me| row.assigned_user.as_deref().is_some_and(|a| crate::triage::same(a, me)));
    let by_view = model
        .views
        .all
        .iter()
        .find(|v| v.notify && v.filter.matches_but_waiting(&facts, me, model.now));
    let watched = mine || by_view.is_some();
    // What a grouped notification names: the watching view, else Mine.
    let view = by_view
        .map(|v| v.name.clone())
        .or_else(|| mine.then(|| "Mine".to_string()));
    let preview = model
        .sync
        .previews
        .get(uuid)
        .filter(|p| p.activity == row.last_activity());
    Some(notify::Arrival {
        uuid: uuid.to_string(),
        name: row.label().to_string(),
        text: preview.map(|p| p.text.clone()).filter(|t| !t.trim().is_empty()),
        at: row.activity_at.or(row.last_activity()),
        customer: model.list.customer_wrote_last(uuid),
        closed: !row.is_open(),
        closed_at: row.closed_at,
        written: preview.and_then(|p| p.at),
        watched,
        view,
        on_screen: on_screen(model, uuid),
    })
}

/// Whether `uuid`'s row is in the list's window or its thread shows.
fn on_screen(model: &Model, uuid: &str) -> bool {
    if model.thread.contact.as_deref() == Some(uuid) {
        return true;
    }
    let from = model.list.view.offset;
    model
        .list
        .row_of(uuid)
        .is_some_and(|r| r >= from && r < from + model.list_height())
}

/// After every update: new messages whose writer is known are decided,
/// `reopen` badges go where the agent opened or wrote, and once a minute
/// the conversations past `breach_after` are looked at.
pub(crate) fn after(model: &mut Model, fx: &mut Vec<Effect>) {
    presence(model, fx);
    let away = model.details.me.available == Some(false);
    if !model.slices.notify.pending.is_empty() {
        let seen: Vec<notify::Arrival> = model
            .slices
            .notify
            .pending
            .keys()
            .filter_map(|u| arrival(model, u))
            .collect();
        // Those no longer loaded are let go.
        let gone: Vec<String> = model
            .slices
            .notify
            .pending
            .keys()
            .filter(|u| model.list.get(u).is_none())
            .cloned()
            .collect();
        for u in gone {
            model.slices.notify.pending.remove(&u);
        }
        call!(model, fx, slices.notify, notify_fx, |st, cx, out| notify::arrivals(
            st, cx, out, seen, away
        ));
    }
    let done: Vec<(String, Option<crate::tui::shared::ReqId>)> = model
        .slices
        .notify
        .reopened
        .keys()
        .filter_map(|u| {
            if model.thread.contact.as_deref() == Some(u.as_str()) {
                Some((u.clone(), None))
            } else {
                model.list.pending.get(u).map(|w| (u.clone(), Some(w.id)))
            }
        })
        .collect();
    for (uuid, id) in done {
        call!(model, fx, slices.notify, notify_fx, |st, _cx, out| notify::forget(
            st, out, &uuid, id
        ));
    }
    breach_look(model, fx, away);
    if notify::flush_due(&model.slices.notify, model.now) {
        call!(model, fx, slices.notify, notify_fx, |st, cx, out| notify::flush(
            st, out, cx.now, away
        ));
    }
}

/// Once a minute with `breach_after`: the open conversations waiting past
/// it (what the Breaching view holds), for the rules to announce the new
/// ones.
fn breach_look(model: &mut Model, fx: &mut Vec<Effect>, away: bool) {
    let minute = model.now.timestamp().div_euclid(60);
    if model.slices.notify.looked == Some(minute) || model.list.store.is_empty() {
        return;
    }
    // The views' own thresholds as they are now (the view form edits them).
    let Some(breaching) = crate::triage::breaching_view_of(model.views.thresholds.breach, &model.views.all) else {
        return;
    };
    model.slices.notify.looked = Some(minute);
    let filter = breaching.filter;
    let me = model.views.me.as_deref();
    let now: Vec<(String, String, bool)> = model
        .list
        .store
        .iter()
        .filter(|r| {
            filter.matches(
                &crate::tui::inbox::views::RowFacts::badged(r, &model.badges),
                me,
                model.now,
            )
        })
        .map(|r| (r.uuid.to_string(), r.label().to_string(), on_screen(model, &r.uuid)))
        .collect();
    call!(model, fx, slices.notify, notify_fx, |st, cx, out| notify::breaches(
        st, out, cx.now, now, away
    ));
}

/// `reopen_on_reply`: reopens `uuid` on the service through the write
/// pipeline (a run of one `Action::Reopen`, undoable like `c`).
pub(crate) fn reopen(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    let Some(c) = model.list.contact(uuid) else { return };
    if c.is_open() || model.list.pending.contains_key(uuid) {
        return;
    }
    let id = model.next_id();
    let action = crate::triage::bulk::Action::Reopen;
    model.list.store.update(uuid, |row| {
        row.closed_at = None;
        row.state_unknown = false;
    });
    model.list.pending.insert(
        uuid.to_string(),
        crate::tui::model::PendingWrite {
            id,
            kind: crate::tui::shared::WriteKind::Reopen,
            before: Some(c.clone()),
        },
    );
    super::record::will_write(model, id, action.clone(), c, None);
    model.act.writes.insert(id, action.clone());
    if let Some(ours) = model.slices.notify.reopened.get_mut(uuid) {
        *ours = Some(id);
    }
    fx.push(Effect::Apply {
        id,
        uuid: uuid.to_string(),
        action,
        guard: None,
    });
}

/// A macro's `snooze WHEN` on `uuid` (the snooze slice keeps it); why not.
pub(crate) fn snooze_until(
    model: &mut Model,
    uuid: &str,
    name: &str,
    when: &str,
    fx: &mut Vec<Effect>,
) -> Result<(), String> {
    call!(model, fx, slices.snooze, snooze_fx, |st, cx, out| snooze::snooze_until(
        st, cx, out, uuid, name, when
    ))
}

/// Through a hub: this agent's presence, told when it changes (the index
/// worker renews it while it holds). Composing where the composer is open, else viewing the
/// thread that shows.
fn presence(model: &mut Model, fx: &mut Vec<Effect>) {
    use crate::tui::shared::colleagues::Doing;
    if model.session.hub.is_none() {
        return;
    }
    // "replying…" ends once the reply is sent: an empty composer that
    // has sent to this contact is only viewing until more is typed.
    let sent =
        |c: &str| model.compose.outbox.iter().any(|o| o.contact == c) && model.compose.draft(c).trim().is_empty();
    let want = match (&model.compose.open, &model.thread.contact) {
        (Some(c), _) if sent(c) => Some((c.as_str(), Doing::Viewing)),
        (Some(c), _) => Some((c.as_str(), Doing::Composing)),
        (None, Some(c)) => Some((c.as_str(), Doing::Viewing)),
        (None, None) => None,
    };
    if let Some((contact, doing)) = crate::tui::hub::presence(&mut model.slices.hub, want) {
        fx.push(Effect::Index(crate::tui::index_worker::IndexCmd::Presence {
            contact,
            doing,
        }));
    }
}
