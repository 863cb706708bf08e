//! What undo remembers: every write, one contact or a run on many, becomes
//! an entry of the history with the reverse of each change, and a toast
//! says what happened (offering `u` when it can be taken back).

use crate::api::Contact;
use crate::text::sanitize_line;
use crate::triage::bulk::{Action, Reverse};
use crate::tui::shared::known::Known;
use crate::tui::shared::{Cx, Note, Out, ReqId, ToastKind};

use super::fx::ActEffect;
use super::history::{Item, Pending, State, WINDOW_SECS};
use super::run::{Guard, Job, Purpose, Run};
use super::state::Act;

/// A single write `id` is going out: remember the contact as it was.
pub fn will_write(st: &mut Act, id: ReqId, action: Action, before: Contact, bot_before: Option<bool>) {
    st.undo.pending.insert(
        id,
        Pending {
            action,
            before,
            bot_before,
        },
    );
}

/// The single write `id` failed: nothing to undo.
pub fn write_failed(st: &mut Act, id: ReqId) {
    st.undo.pending.remove(&id);
}

/// The single write `id` succeeded with `after` (already in the list):
/// it becomes an entry, and its toast is said. `before` is the contact as
/// the service showed it just before the write (the row when not read).
/// False when `id` was not one undo follows (the caller says what
/// happened).
pub fn wrote<F>(st: &mut Act, cx: &Cx, out: &mut Out<F>, id: ReqId, before: Option<&Contact>, after: &Contact) -> bool {
    let Some(p) = st.undo.pending.remove(&id) else {
        return false;
    };
    let before = before.cloned().unwrap_or(p.before);
    let item = Item {
        uuid: after.uuid.clone(),
        name: name_of(after, &before),
        action: p.action.clone(),
        reverse: p.action.reverse(&before, p.bot_before),
        before,
        after: after.clone(),
        bot_after: None,
        undone: false,
        conflicts: Vec::new(),
    };
    record(st, cx, out, p.action, None, vec![item]);
    true
}

/// The bot write `id` on `uuid` succeeded: the bot now runs (or not).
pub fn bot_wrote<F>(st: &mut Act, cx: &Cx, out: &mut Out<F>, id: ReqId, uuid: &str, running: bool) -> bool {
    let Some(p) = st.undo.pending.remove(&id) else {
        return false;
    };
    let action = Action::Bot(running);
    let after = cx.contacts.contact(uuid).unwrap_or_else(|| p.before.clone());
    let item = Item {
        uuid: uuid.to_string(),
        name: name_of(&after, &p.before),
        action: action.clone(),
        reverse: action.reverse(&p.before, p.bot_before),
        before: p.before,
        after,
        bot_after: Some(running),
        undone: false,
        conflicts: Vec::new(),
    };
    record(st, cx, out, action, None, vec![item]);
    true
}

fn name_of(after: &Contact, before: &Contact) -> String {
    [&after.name, &before.name, &after.phone_number]
        .into_iter()
        .find(|n| !n.trim().is_empty())
        .cloned()
        .unwrap_or_else(|| "a contact".into())
}

/// A run on many has ended: an action (or a macro's steps) becomes one
/// entry (its successes only); an undo marks what it took back.
pub fn record_run(st: &mut Act, cx: &Cx, out: &mut Out<ActEffect>, run: &Run) {
    match run.purpose {
        Purpose::Act => {
            let Some(action) = run.ok.first().map(|(job, _)| job.action.clone()) else {
                return;
            };
            let items = run
                .ok
                .iter()
                .map(|(job, after)| Item {
                    uuid: job.uuid.clone(),
                    name: job.name.clone(),
                    action: job.action.clone(),
                    reverse: job.action.reverse(&job.before, job.bot_before),
                    before: job.before.clone(),
                    after: after.clone(),
                    bot_after: match job.action {
                        Action::Bot(on) => Some(on),
                        _ => None,
                    },
                    undone: false,
                    conflicts: Vec::new(),
                })
                .collect();
            let label = run.named.as_ref().map(|n| n.label.as_str());
            record(st, cx, out, action, label, items);
        }
        Purpose::Undo => {
            let Some(id) = st.undo.undoing.take() else { return };
            let Some(entry) = st.undo.get_mut(id) else { return };
            // An item is its contact's job that takes back its action.
            let of = |job: &Job, item: &Item| {
                job.uuid == item.uuid
                    && match job.guard.as_deref() {
                        Some(Guard::Undo { action, .. }) => *action == item.action,
                        _ => matches!(&item.reverse, Reverse::Do(a) if *a == job.action),
                    }
            };
            for item in entry.items.iter_mut() {
                if run.ok.iter().any(|(job, _)| of(job, item)) {
                    item.undone = true;
                }
                // Fields a colleague changed since stay theirs: the item
                // is not offered again.
                if let Some((_, c)) = run.conflicts.iter().find(|(job, _)| of(job, item)) {
                    item.conflicts = c.clone();
                }
            }
            // A run made elsewhere: the file says it was taken back, so
            // the CLI (and the next start) does not offer it again.
            if let (Some(of), Some(file)) = (&entry.run, &cx.session.history_file)
                && !run.ok.is_empty()
            {
                let record = super::runs::undo_record(of, &entry.action, run, cx.session, cx.now);
                out.fx(ActEffect::Runs(super::runs::RunsEffect::Keep {
                    file: file.clone(),
                    record: Box::new(record),
                }));
            }
        }
    }
}

/// What an action did, in words, with the team's name when known.
fn describe(action: &Action, known: &Known) -> String {
    match action {
        Action::Team(t) => {
            let name = known.team_name(t).filter(|n| !n.is_empty()).unwrap_or(t);
            format!("team set to {name}")
        }
        other => other.done(),
    }
}

/// Adds the entry and says what happened (a macro by its `label`),
/// offering `u` when it can be undone and saying why not when it cannot.
fn record<F>(st: &mut Act, cx: &Cx, out: &mut Out<F>, action: Action, label: Option<&str>, items: Vec<Item>) {
    let now = cx.now;
    let contacts: std::collections::HashSet<&str> = items.iter().map(|i| i.uuid.as_str()).collect();
    let who = match (contacts.len(), items.first()) {
        (1, Some(one)) => one.name.clone(),
        (n, _) => format!("{n} contacts"),
    };
    let did = label.map_or_else(|| describe(&action, cx.known), |l| format!("ran {l}"));
    let what = sanitize_line(&format!("{did} ({who})"));
    let id = st.undo.push(now, action, what.clone(), items);
    let (cannot, why) = st.undo.get(id).map(|e| e.cannot()).unwrap_or((0, None));
    let text = match st.undo.state(id, cx.contacts) {
        Some(State::Undoable(_)) => match why {
            Some(why) if cannot > 0 => format!("{what} · {cannot} cannot be undone: {why}"),
            _ => what,
        },
        Some(State::Cannot(why)) => {
            st.undo.offer = None;
            format!("{what} · cannot undo: {why}")
        }
        _ => {
            st.undo.offer = None;
            what
        }
    };
    out.note(Note::Toast {
        kind: ToastKind::Success,
        text,
        secs: Some(WINDOW_SECS),
    });
}

/// This agent's writes on `uuid` in the history (this session's and the
/// runs of the CLI and an assistant it merged), oldest first: when, and
/// what was done. For the thread's timeline.
pub fn own_writes(h: &super::history::History, uuid: &str) -> Vec<(chrono::DateTime<chrono::Utc>, Action)> {
    let mut out: Vec<_> = h
        .entries
        .iter()
        .flat_map(|e| {
            e.items
                .iter()
                .filter(|i| i.uuid == uuid && !i.undone)
                .map(move |i| (e.at, i.action.clone()))
        })
        .collect();
    out.sort_by_key(|(at, _)| *at);
    out
}
