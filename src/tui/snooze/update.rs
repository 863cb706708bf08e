//! `z`, the picker's keys, the clock waking what sleeps, and keeping it.

use crossterm::event::KeyEvent;

use super::fx::SnoozeEffect;
use super::msg::SnoozeMsg;
use super::state::{BACK, SNOOZED};
use super::state::{Entry, Picker, Snooze};
use crate::snooze::{PRESETS, Until, parse_until};
use crate::tui::keymap::{Mode, ModeAction as M, typed_char};
use crate::tui::shared::{Cx, Note, Out, ToastKind};
use crate::tui::widgets::clean;

type O<'a> = Out<'a, SnoozeEffect>;

fn badge(out: &mut O, uuid: &str, badge: crate::tui::shared::Badge, on: bool) {
    out.note(Note::Badge {
        uuid: uuid.to_string(),
        badge,
        on,
    });
}

/// At start: reads what the account keeps asleep.
pub fn startup(st: &mut Snooze, cx: &Cx, out: &mut O) {
    st.account = cx.session.account.clone();
    out.fx(SnoozeEffect::Load {
        account: st.account.clone(),
    });
}

/// Writes the snoozes down (once the kept ones were read).
fn keep(st: &Snooze, out: &mut O) {
    if st.loaded {
        out.fx(SnoozeEffect::Save {
            account: st.account.clone(),
            kept: st.kept(),
        });
    }
}

/// `z`: snoozes the selected conversation (the picker asks until when),
/// or wakes it when it sleeps.
pub fn open(st: &mut Snooze, cx: &Cx, out: &mut O) {
    let Some(uuid) = cx.selected.map(str::to_string) else {
        return out.toast(ToastKind::Info, "no conversation selected to snooze");
    };
    let name = cx.contacts.label(&uuid).unwrap_or_else(|| uuid.clone());
    if st.asleep.contains_key(&uuid) {
        return wake(st, cx, out, &uuid, "woken");
    }
    st.picker = Some(Picker {
        uuid,
        name,
        ..Default::default()
    });
}

/// A key while the picker shows: `false` when it is closed. ↑/↓ choose a
/// preset, typing gives a time instead, Enter snoozes, Esc closes.
pub fn key(st: &mut Snooze, cx: &Cx, out: &mut O, key: KeyEvent) -> bool {
    let Some(p) = st.picker.as_mut() else {
        return false;
    };
    match cx.keys.mode_action_for(Mode::Picker, &key) {
        Some(M::Cancel) => st.picker = None,
        Some(M::Down) => p.choice = (p.choice + 1) % PRESETS.len(),
        Some(M::Up) => p.choice = (p.choice + PRESETS.len() - 1) % PRESETS.len(),
        Some(M::Choose) => choose(st, cx, out),
        _ => match cx.keys.mode_action_for(Mode::Text, &key) {
            Some(M::DeleteChar) => {
                p.text.pop();
                p.error = None;
            }
            Some(M::DeleteToStart) => {
                p.text.clear();
                p.error = None;
            }
            _ => {
                if let Some(c) = typed_char(&key)
                    && p.text.chars().count() < 40
                {
                    p.text.push(c);
                    p.error = None;
                }
            }
        },
    }
    true
}

/// Text pasted while the picker shows is typed into it.
pub fn paste(st: &mut Snooze, text: &str) -> bool {
    let Some(p) = st.picker.as_mut() else {
        return false;
    };
    p.text.extend(text.chars().filter(|c| !c.is_control()).take(40));
    p.error = None;
    true
}

/// Enter: the typed time, else the preset chosen.
fn choose(st: &mut Snooze, cx: &Cx, out: &mut O) {
    let Some(p) = st.picker.as_mut() else { return };
    let typed = p.text.trim().to_string();
    let text = if typed.is_empty() { PRESETS[p.choice].1 } else { &typed };
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    match parse_until(text, &now) {
        Ok(until) => {
            let (uuid, name) = (p.uuid.clone(), p.name.clone());
            st.picker = None;
            snooze(st, cx, out, &uuid, &name, until);
        }
        Err(e) => p.error = Some(e),
    }
}

fn snooze(st: &mut Snooze, cx: &Cx, out: &mut O, uuid: &str, name: &str, until: Until) {
    st.asleep.insert(
        uuid.to_string(),
        Entry {
            until,
            since: cx.now,
            name: name.to_string(),
        },
    );
    st.back.remove(uuid);
    badge(out, uuid, BACK, false);
    badge(out, uuid, SNOOZED, true);
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    let kept = if st.loaded { "" } else { " (this session only)" };
    out.toast(
        ToastKind::Success,
        format!("snoozed {} {}{kept}; z wakes it", clean(name), until.describe(&now)),
    );
    keep(st, out);
}

/// Wakes `uuid`: it comes back into its views, marked `back`.
fn wake(st: &mut Snooze, cx: &Cx, out: &mut O, uuid: &str, why: &str) {
    let Some(e) = st.asleep.remove(uuid) else { return };
    badge(out, uuid, SNOOZED, false);
    if cx.open != Some(uuid) {
        st.back.insert(uuid.to_string());
        badge(out, uuid, BACK, true);
    }
    let name = cx.contacts.label(uuid).unwrap_or(e.name);
    out.toast(ToastKind::Info, format!("{} is back ({why})", clean(&name)));
    keep(st, out);
}

/// The clock: wakes what is due or was written in; the `back` mark goes
/// once the conversation is open.
pub fn tick(st: &mut Snooze, cx: &Cx, out: &mut O) {
    let due: Vec<(String, &'static str)> = st
        .asleep
        .iter()
        .filter_map(|(uuid, e)| {
            // A message after the snooze: the customer's wakes it; ours
            // (a reply, the bot) does not. Without the local index who
            // wrote is never known: any message wakes it.
            let newer = cx.contacts.last_activity(uuid).is_some_and(|t| t > e.since);
            let theirs = match cx.contacts.customer_wrote_last(uuid) {
                Some(customer) => customer,
                None => !cx.indexed,
            };
            if newer && theirs {
                Some((uuid.clone(), "they wrote"))
            } else if e.until.is_over(cx.now, e.since, None) {
                Some((uuid.clone(), "its time came"))
            } else {
                None
            }
        })
        .collect();
    for (uuid, why) in due {
        wake(st, cx, out, &uuid, why);
    }
    if let Some(open) = cx.open
        && st.back.remove(open)
    {
        badge(out, open, BACK, false);
        keep(st, out);
    }
}

/// What the effects answer: the kept snoozes (merged with any made before
/// they arrived), or why keeping failed.
pub fn on_msg(st: &mut Snooze, cx: &Cx, out: &mut O, msg: SnoozeMsg) {
    match msg {
        SnoozeMsg::Loaded(Ok(kept)) => {
            let changed = !st.asleep.is_empty() || !st.back.is_empty();
            for (uuid, e) in kept.asleep {
                badge(out, &uuid, SNOOZED, true);
                st.asleep.entry(uuid).or_insert(e);
            }
            for uuid in kept.back {
                if !st.asleep.contains_key(&uuid) {
                    badge(out, &uuid, BACK, true);
                    st.back.insert(uuid);
                }
            }
            st.loaded = true;
            if changed {
                keep(st, out);
            }
            // What came due while frontdesk was closed wakes now.
            tick(st, cx, out);
        }
        SnoozeMsg::Loaded(Err(e)) | SnoozeMsg::Saved(Err(e)) => {
            out.toast(ToastKind::Error, clean(&e));
        }
        SnoozeMsg::Saved(Ok(())) => {}
    }
}
