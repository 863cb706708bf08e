//! Ownership in the TUI (issue 36): one contact's owner or state write
//! (assign, unassign, close, reopen) asks first, with one key, when a
//! colleague is replying to the conversation or just did, and when the
//! service shows a colleague's change since this agent saw it (the write
//! carries `act::Guard::Owner`; `triage::owner` compares and names them).
//! `y` sends it anyway, `n` leaves the conversation as the colleague has it.
//! `assign_on_reply` takes an Unassigned conversation after this agent's
//! reply through the same checked write, and never asks: a conversation a
//! colleague took meanwhile stays theirs.

use crate::api::Contact;
use crate::triage::bulk::Action;
use crate::triage::owner::Seen;
use crate::tui::act::{self, Confirm, Guard, Single};
use crate::tui::effect::Effect;
use crate::tui::index_worker::IndexCmd;
use crate::tui::model::{Model, Overlay, PendingWrite, ToastKind};
use crate::tui::msg::{ReqId, WriteKind};

/// The guard of an owner or state write on `before`: the service's copy
/// is compared with it just before the write.
pub(crate) fn guard(model: &Model, before: &Contact) -> Option<Box<Guard>> {
    Some(Box::new(Guard::Owner {
        seen: Seen::of(before),
        me: model.views.me.clone(),
        hub: model.session.hub.clone().map(crate::tui::act::Hub),
    }))
}

/// Puts `action` on `before` to the agent: `why` heads the question.
fn ask(model: &mut Model, why: &str, action: Action, before: Contact, checked: bool) {
    let question = act::owner_question(why, &action, model.views.me.as_deref());
    model.overlay = Some(Overlay::Confirm(Box::new(Confirm {
        question,
        doing: action.doing().to_string(),
        actions: vec![action.clone()],
        jobs: Vec::new(),
        already: Vec::new(),
        rerun: None,
        single: Some(Box::new(Single {
            uuid: before.uuid.clone(),
            action,
            before,
            checked,
        })),
    })));
}

/// Asks before `action` on `c` while a colleague is replying to it or
/// replied in the last two minutes ("dana is replying now: close it
/// anyway?"); true when it asked (nothing is sent yet).
pub(crate) fn ask_if_busy(model: &mut Model, c: &Contact, action: &Action) -> bool {
    let Some(why) = model.colleagues.before_macro(&c.uuid, model.now) else {
        return false;
    };
    ask(model, &why, action.clone(), c.clone(), true);
    true
}

/// The answer to the write `id` says a colleague changed the contact since
/// (`what`; `now` as the service holds it): the screen shows it as it is,
/// nothing is remembered for undo, and the agent is asked.
pub(crate) fn changed(model: &mut Model, id: ReqId, action: Action, now: Contact, what: &str, fx: &mut Vec<Effect>) {
    super::record::write_failed(model, id);
    model.known.learn(&now);
    if let Some(full) = model.details.full.as_mut().filter(|f| f.uuid == now.uuid) {
        let meta = full.custom_fields_metadata.take();
        *full = now.clone();
        full.custom_fields_metadata = meta;
    }
    model.list.store.replace(now.clone());
    if model.sync.enabled() {
        fx.push(Effect::Index(IndexCmd::Store(Box::new(now.clone()))));
    }
    ask(model, what, action, now, false);
}

/// `y` to one contact's question: the write goes (still checked, when the
/// question was about a colleague replying).
pub(crate) fn confirmed(model: &mut Model, s: Single, fx: &mut Vec<Effect>) {
    let guard = if s.checked { guard(model, &s.before) } else { None };
    match s.action {
        Action::Close | Action::Reopen => super::close::close_or_reopen(model, s.before, s.action, guard, fx),
        action => {
            send(model, &s.before, action, guard, fx);
        }
    }
}

/// Sends one contact's write that shows nothing before its answer (an
/// assignment), remembered for undo; the answer comes to
/// `actions::applied`.
pub(crate) fn send(
    model: &mut Model,
    before: &Contact,
    action: Action,
    guard: Option<Box<Guard>>,
    fx: &mut Vec<Effect>,
) -> ReqId {
    let id = model.next_id();
    model.act.writes.insert(id, action.clone());
    super::record::will_write(model, id, action.clone(), before.clone(), None);
    model.list.pending.insert(
        before.uuid.clone(),
        PendingWrite {
            id,
            kind: WriteKind::of(&action),
            before: None,
        },
    );
    fx.push(Effect::Apply {
        id,
        uuid: before.uuid.clone(),
        action,
        guard,
    });
    id
}

/// `assign_on_reply`: this agent's reply to `uuid` went out; an
/// Unassigned conversation is assigned to them, checked (a colleague who
/// took it meanwhile keeps it, and the agent is told, not asked).
pub(crate) fn assign_on_reply(model: &mut Model, uuid: &str, fx: &mut Vec<Effect>) {
    if !model.session.assign_on_reply {
        return;
    }
    let Some(me) = model.views.me.clone() else { return };
    let Some(c) = model.list.contact(uuid) else { return };
    let unassigned = c.assigned_user.as_deref().is_none_or(|a| a.trim().is_empty());
    if !unassigned || model.list.pending.contains_key(uuid) {
        return;
    }
    let g = guard(model, &c);
    let id = send(model, &c, Action::Assign(me), g, fx);
    model.act.replies.insert(id);
}

/// The answer of an `assign_on_reply` write that found the conversation
/// changed: it stays as the colleague left it, and the agent is told.
pub(crate) fn reply_kept(model: &mut Model, id: ReqId, now: Contact, what: &str) {
    super::record::write_failed(model, id);
    let name = crate::tui::text::sanitize_line(&now.name);
    model.list.store.replace(now);
    let now_t = model.now;
    model.status.push(
        ToastKind::Info,
        format!(
            "{name}: not assigned to you on reply: {}",
            crate::tui::text::sanitize_line(what)
        ),
        now_t,
    );
}

/// The thread's timeline learns this agent's own writes on `uuid` from
/// the history (when its thread is the one shown).
pub(crate) fn own_timeline(model: &mut Model, uuid: &str) {
    if model.thread.contact.as_deref() != Some(uuid) {
        return;
    }
    for (at, action) in act::own_writes(&model.act.undo, uuid) {
        if let Some(what) = crate::tui::thread::timeline::own(&action) {
            let event = crate::tui::thread::timeline::Event {
                at,
                what,
                by: Some("you".into()),
                reason: None,
            };
            model.thread.timeline.add(uuid, event);
        }
    }
}

/// Through a hub: asks it for `uuid`'s timeline (who did what through the
/// hub, closes with their reason), for the thread.
pub(crate) fn fetch_timeline(model: &Model, uuid: &str, fx: &mut Vec<Effect>) {
    if let Some(hub) = model.session.hub.clone() {
        fx.push(Effect::Runs(act::RunsEffect::Timeline {
            hub: act::Hub(hub),
            contact: uuid.to_string(),
        }));
    }
}

/// The hub's timeline of `contact`: its events join the thread's (a
/// failure only goes to the log: the thread shows what it has).
pub(crate) fn hub_timeline(
    model: &mut Model,
    contact: &str,
    result: Result<Vec<crate::hubclient::TimelineEvent>, String>,
) {
    let events = match result {
        Ok(events) => events,
        Err(e) => {
            return tracing::warn!(
                "the hub's timeline could not be read: {}",
                crate::text::sanitize_line(&e)
            );
        }
    };
    if model.thread.contact.as_deref() != Some(contact) {
        return;
    }
    let me = model.session.agent.clone();
    for e in events {
        let Ok(at) = chrono::DateTime::parse_from_rfc3339(&e.at) else {
            continue;
        };
        // This agent's own writes through the hub are "you".
        let by = e.agent.map(|a| {
            if me.as_deref() == Some(a.as_str()) {
                "you".to_string()
            } else {
                a
            }
        });
        let event = crate::tui::thread::timeline::Event {
            at: at.with_timezone(&chrono::Utc),
            what: e.what,
            by,
            reason: e.reason,
        };
        model.thread.timeline.add(contact, event);
    }
}

/// A change of the conversation the thread shows, heard on the hub's
/// stream: its timeline is read again (who did it, and a close's reason).
pub(crate) fn event_timeline(model: &Model, event: &crate::hubclient::HubEvent, fx: &mut Vec<Effect>) {
    use crate::hubclient::HubEvent;
    let changes = matches!(
        event,
        HubEvent::ContactChanged { .. } | HubEvent::ConversationOpened(_) | HubEvent::ConversationClosed(_)
    );
    let shown = model.thread.contact.as_deref();
    if let Some(uuid) = shown.filter(|u| changes && event.contact() == Some(*u)) {
        fetch_timeline(model, uuid, fx);
    }
}

/// Before closing or (un)assigning many: "dana is replying now (Ana, +1
/// more)" when a colleague is answering one of them or just did.
pub(crate) fn busy_among(model: &Model, actions: &[Action], jobs: &[act::Job]) -> Option<String> {
    let owner = actions
        .iter()
        .any(|a| matches!(a, Action::Close | Action::Assign(_) | Action::Unassign));
    if !owner {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    let targets = jobs
        .iter()
        .filter(|j| seen.insert(j.uuid.as_str()))
        .map(|j| (j.uuid.as_str(), j.name.as_str()));
    model.colleagues.busy_among(targets, model.now)
}
