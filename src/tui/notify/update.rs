//! The rules: when a new message or a long wait is announced, and what a
//! reply in a closed conversation does.

use chrono::{DateTime, Utc};

use super::fx::{NotifyEffect, NotifyMsg};
use crossterm::event::KeyEvent;

use super::state::{Arrival, BURST_WINDOW, Burst, GIVE_UP, Notify, REOPENED, STALE};
use crate::notify::quiet::{Choice, Quiet};
use crate::tui::keymap::{Mode, ModeAction as M};
use crate::tui::shared::{Cx, Note, Out, ToastKind};
use crate::tui::widgets::clean;

type O<'a> = Out<'a, NotifyEffect>;

/// A sync or a refresh brought `uuid` a new message (not one of ours):
/// it is decided once the root knows who wrote it.
pub fn arrived(st: &mut Notify, uuid: &str, now: DateTime<Utc>) {
    st.pending.entry(uuid.to_string()).or_insert(now);
}

/// The terminal gained (`true`) or lost the focus.
pub fn focus(st: &mut Notify, gained: bool) {
    st.focused = gained;
}

/// `B`: the picker (snooze notifications for a while, off, or on again).
pub fn open(st: &mut Notify) {
    st.picker = Some(0);
}

/// A key while the picker shows: `false` when it is not open. ↑/↓ choose,
/// Enter sets, Esc closes.
pub fn key(st: &mut Notify, cx: &Cx, out: &mut O, key: KeyEvent) -> bool {
    let Some(at) = st.picker else { return false };
    let n = Choice::ALL.len();
    match cx.keys.mode_action_for(Mode::Picker, &key) {
        Some(M::Cancel) => st.picker = None,
        Some(M::Down) => st.picker = Some((at + 1) % n),
        Some(M::Up) => st.picker = Some((at + n - 1) % n),
        Some(M::Choose) => {
            st.picker = None;
            choose(st, cx, out, Choice::ALL[at]);
        }
        _ => {}
    }
    true
}

/// Sets what `c` says, says so, and keeps it.
pub fn choose(st: &mut Notify, cx: &Cx, out: &mut O, c: Choice) {
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    st.quiet = c.quiet(now);
    if st.quiet != Quiet::On {
        st.burst = None; // what it held is not announced later
    }
    let text = match (st.quiet, status(st, cx.now, cx.session.tz)) {
        (Quiet::Off, _) => "notifications off; B turns them on".to_string(),
        (_, Some(s)) => format!("notifications snoozed {}", s.trim_start_matches("🔕 ")),
        (_, None) => "notifications on".to_string(),
    };
    out.toast(ToastKind::Info, text);
    if let Some(path) = &st.kept {
        out.fx(NotifyEffect::Keep {
            path: path.clone(),
            quiet: st.quiet,
        });
    }
}

/// What the status bar says while notifications are quiet: "🔕 until
/// 14:30" (with the day when not today), "🔕 off"; `None` while they show.
pub fn status(st: &Notify, now: DateTime<Utc>, tz: Option<crate::tui::zone::Zone>) -> Option<String> {
    match st.quiet.at(now) {
        Quiet::On => None,
        Quiet::Off => Some("🔕 off".into()),
        Quiet::Until(t) => {
            let (t, today) = (crate::tui::zone::local(t, tz), crate::tui::zone::local(now, tz));
            let when = if t.date_naive() == today.date_naive() {
                t.format("%H:%M").to_string()
            } else {
                t.format("%a %H:%M").to_string()
            };
            Some(format!("🔕 until {when}"))
        }
    }
}

/// The notification command's answer.
pub fn on_msg(out: &mut O, msg: NotifyMsg) {
    if let NotifyMsg(Err(e)) = msg {
        out.toast(ToastKind::Error, clean(&e));
    }
}

/// The agent opened `uuid`'s thread or wrote on it (with the write `id`,
/// if one): its `reopen` badge goes, unless the write is our own reopening.
pub fn forget(st: &mut Notify, out: &mut O, uuid: &str, id: Option<crate::tui::shared::ReqId>) {
    match st.reopened.get(uuid) {
        Some(ours) if id.is_some() && *ours == id => {}
        Some(_) => {
            st.reopened.remove(uuid);
            out.note(Note::Badge {
                uuid: uuid.to_string(),
                badge: REOPENED,
                on: false,
            });
        }
        None => {}
    }
}

/// Whether a notification may show now for a contact `on_screen`: never
/// while snoozed or turned off or the agent is away; else when the terminal is not
/// focused or the contact is not on screen.
pub fn may_show(st: &Notify, now: DateTime<Utc>, away: bool, on_screen: bool) -> bool {
    !st.quiet.silent(now) && !away && (!st.focused || !on_screen)
}

/// The pending new messages, as the root sees them now (`away`: the
/// agent's availability is away). Each is decided once who wrote it is
/// known (or given up on); a customer's message in a closed conversation
/// reopens it; one for a watched contact is announced.
pub fn arrivals(st: &mut Notify, cx: &Cx, out: &mut O, seen: Vec<Arrival>, away: bool) {
    // One notification for the burst a pass brings, with a count.
    let mut shown: Vec<(String, String, Option<String>)> = Vec::new();
    for a in seen {
        let Some(since) = st.pending.get(&a.uuid).copied() else {
            continue;
        };
        let customer = match a.customer {
            Some(c) => c,
            // Without the local index who wrote is never known: any
            // message counts as theirs.
            None if !cx.indexed => true,
            None if cx.now - since > GIVE_UP => false,
            None => continue,
        };
        st.pending.remove(&a.uuid);
        if !customer {
            continue;
        }
        if let Some(at) = a.at {
            if st.announced.get(&a.uuid).is_some_and(|&before| before >= at) {
                continue; // this message was decided already
            }
            st.announced.insert(a.uuid.clone(), at);
        }
        // Learned late (a fill of last messages, a catch-up): not news.
        // When it was written says so best; the activity can be learned
        // from the list's order long after.
        let news = a.written.or(a.at).is_none_or(|at| since - at <= STALE);
        // Only a message written after the close reopens it: a closed
        // conversation whose last message is the customer's from before
        // the close (its activity learned late) is no reply.
        let after_close = match (a.written, a.closed_at) {
            (Some(w), Some(c)) => w > c,
            _ => true,
        };
        if a.closed && after_close {
            reopen(st, cx, out, &a);
        }
        if a.watched && news && may_show(st, cx.now, away, a.on_screen) {
            let text = a.text.clone().unwrap_or_else(|| "new message".into());
            shown.push((a.name.clone(), text, a.view.clone()));
        }
    }
    if shown.is_empty() {
        return;
    }
    // Inside a burst window: held for its end.
    if let Some(b) = st.burst.as_mut().filter(|b| cx.now - b.since < BURST_WINDOW) {
        b.held.extend(shown.into_iter().map(|(name, _, view)| (name, view)));
        return;
    }
    st.burst = Some(Burst {
        since: cx.now,
        held: Vec::new(),
    });
    match shown.as_slice() {
        [(name, text, _)] => announce(st, out, name, text),
        many => {
            let held: Vec<(String, Option<String>)> = many.iter().map(|(n, _, v)| (n.clone(), v.clone())).collect();
            summary(st, out, &held);
        }
    }
}

/// After every update: a burst window that ended announces what it held,
/// as one notification with a count, and the next window starts; an empty
/// one closes. A snooze that ran out ends.
pub fn flush(st: &mut Notify, out: &mut O, now: DateTime<Utc>, away: bool) {
    st.quiet = st.quiet.at(now);
    let Some(b) = st.burst.as_mut().filter(|b| now - b.since >= BURST_WINDOW) else {
        return;
    };
    let held = std::mem::take(&mut b.held);
    if held.is_empty() {
        st.burst = None;
        return;
    }
    b.since = now;
    if !st.quiet.silent(now) && !away {
        summary(st, out, &held);
    }
}

/// Whether [`flush`] has anything to do at `now` (so the root builds no
/// context on every tick for nothing).
pub fn flush_due(st: &Notify, now: DateTime<Utc>) -> bool {
    st.burst.as_ref().is_some_and(|b| now - b.since >= BURST_WINDOW) || matches!(st.quiet, Quiet::Until(t) if now >= t)
}

/// One notification for several messages: "12 new in Waiting" when one
/// view watches them all, else "12 new messages"; the names in its text.
fn summary(st: &Notify, out: &mut O, held: &[(String, Option<String>)]) {
    let mut names: Vec<&str> = Vec::new();
    for (n, _) in held {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    let text = crate::text::truncate(&names.join(", "), 120).into_owned();
    let first = held.first().and_then(|(_, v)| v.as_deref());
    let title = match first {
        Some(v) if held.iter().all(|(_, w)| w.as_deref() == Some(v)) => format!("{} new in {v}", held.len()),
        _ => format!("{} new messages", held.len()),
    };
    announce(st, out, &title, &text);
}

fn reopen(st: &mut Notify, cx: &Cx, out: &mut O, a: &Arrival) {
    if cx.open == Some(a.uuid.as_str()) && !st.reopen_on_reply {
        return; // the agent is reading it
    }
    st.reopened.insert(a.uuid.clone(), None);
    out.note(Note::Badge {
        uuid: a.uuid.clone(),
        badge: REOPENED,
        on: true,
    });
    if st.reopen_on_reply {
        out.note(Note::Reopen(a.uuid.clone()));
    } else {
        out.toast(
            ToastKind::Info,
            format!("{} wrote again in a closed conversation", clean(&a.name)),
        );
    }
}

/// The conversations past `breach_after` now (uuid, name, on screen):
/// each that was not at the last look is announced. The first look only
/// learns which are.
pub fn breaches(st: &mut Notify, out: &mut O, at: DateTime<Utc>, now: Vec<(String, String, bool)>, away: bool) {
    let before = st.breached.replace(now.iter().map(|(u, _, _)| u.clone()).collect());
    let Some(before) = before else { return };
    for (uuid, name, on_screen) in now {
        if !before.contains(&uuid) && may_show(st, at, away, on_screen) {
            announce(st, out, &name, "is waiting past breach_after");
        }
    }
}

/// The bytes for the terminal (written by the app loop) and the command.
fn announce(st: &Notify, out: &mut O, name: &str, text: &str) {
    let title = format!("frontdesk: {name}");
    out.note(Note::Terminal(crate::notify::sequences(&title, text, st.mux)));
    if !st.command.is_empty() {
        out.fx(NotifyEffect::Run {
            argv: st.command.clone(),
            contact: name.to_string(),
            text: text.to_string(),
        });
    }
}
