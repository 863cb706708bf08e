//! The rules: when a new message or a long wait is announced, and what a
//! reply in a closed conversation does.

use chrono::{DateTime, Utc};

use super::fx::{NotifyEffect, NotifyMsg};
use super::state::{Arrival, GIVE_UP, Notify, REOPENED};
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

/// `B`: notifications off (or on again) for this session.
pub fn toggle(st: &mut Notify, out: &mut O) {
    st.enabled = !st.enabled;
    let text = if st.enabled {
        "notifications on"
    } else {
        "notifications off for this session; B turns them on"
    };
    out.toast(ToastKind::Info, text);
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
/// while turned off or the agent is away; else when the terminal is not
/// focused or the contact is not on screen.
pub fn may_show(st: &Notify, away: bool, on_screen: bool) -> bool {
    st.enabled && !away && (!st.focused || !on_screen)
}

/// The pending new messages, as the root sees them now (`away`: the
/// agent's availability is away). Each is decided once who wrote it is
/// known (or given up on); a customer's message in a closed conversation
/// reopens it; one for a watched contact is announced.
pub fn arrivals(st: &mut Notify, cx: &Cx, out: &mut O, seen: Vec<Arrival>, away: bool) {
    // One notification for the burst a pass brings, with a count.
    let mut shown: Vec<(String, String)> = Vec::new();
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
        if a.closed {
            reopen(st, cx, out, &a);
        }
        if a.watched && may_show(st, away, a.on_screen) {
            let text = a.text.clone().unwrap_or_else(|| "new message".into());
            shown.push((a.name.clone(), text));
        }
    }
    match shown.as_slice() {
        [] => {}
        [(name, text)] => announce(st, out, name, text),
        many => {
            let names: Vec<&str> = many.iter().map(|(n, _)| n.as_str()).collect();
            let text = crate::text::truncate(&names.join(", "), 120).into_owned();
            announce(st, out, &format!("{} new messages", many.len()), &text);
        }
    }
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
pub fn breaches(st: &mut Notify, out: &mut O, now: Vec<(String, String, bool)>, away: bool) {
    let before = st.breached.replace(now.iter().map(|(u, _, _)| u.clone()).collect());
    let Some(before) = before else { return };
    for (uuid, name, on_screen) in now {
        if !before.contains(&uuid) && may_show(st, away, on_screen) {
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
