//! `z`, the picker's keys, the clock waking what sleeps, and keeping it.

use crossterm::event::KeyEvent;

use super::fx::SnoozeEffect;
use super::msg::SnoozeMsg;
use super::state::OnHub;
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

/// An effect on where the snoozes are kept: the team hub when one is
/// configured, else this machine's file.
fn emit(st: &Snooze, out: &mut O, effect: SnoozeEffect) {
    match &st.hub {
        Some(on) => out.fx(SnoozeEffect::Hub(on.clone(), Box::new(effect))),
        None => out.fx(effect),
    }
}

/// At start: reads what the account keeps asleep.
pub fn startup(st: &mut Snooze, cx: &Cx, out: &mut O) {
    st.account = cx.session.account.clone();
    st.hub = cx.session.hub.clone().map(|hub| OnHub {
        hub,
        me: cx.session.agent.clone(),
    });
    st.asked = Some(cx.now);
    let load = SnoozeEffect::Load {
        account: st.account.clone(),
    };
    emit(st, out, load);
}

/// Writes `contacts`' snoozes down (once the kept ones were read): only
/// theirs, so what another process wrote for other contacts stays.
fn keep<'a>(st: &mut Snooze, out: &mut O, contacts: impl IntoIterator<Item = &'a str>) {
    if st.loaded {
        st.saving += 1;
        let save = SnoozeEffect::Save {
            account: st.account.clone(),
            kept: st.kept(),
            contacts: contacts.into_iter().map(str::to_string).collect(),
        };
        emit(st, out, save);
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

/// Snoozes `uuid` until `when` (a macro's step, as typed in the picker);
/// why not, in words.
pub fn snooze_until(st: &mut Snooze, cx: &Cx, out: &mut O, uuid: &str, name: &str, when: &str) -> Result<(), String> {
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    let until = parse_until(when, &now)?;
    snooze(st, cx, out, uuid, name, until);
    Ok(())
}

fn snooze(st: &mut Snooze, cx: &Cx, out: &mut O, uuid: &str, name: &str, until: Until) {
    st.asleep.insert(
        uuid.to_string(),
        Entry {
            until,
            since: cx.now,
            name: name.to_string(),
            by: None,
        },
    );
    st.back.remove(uuid);
    st.last = Some((uuid.to_string(), cx.now));
    badge(out, uuid, BACK, false);
    badge(out, uuid, SNOOZED, true);
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    let kept = if st.loaded { "" } else { " (this session only)" };
    out.toast(
        ToastKind::Success,
        format!("snoozed {} {}{kept}; z wakes it", clean(name), until.describe(&now)),
    );
    keep(st, out, [uuid]);
}

/// Whether `u` now is for the agent's last snooze: within the window, and
/// newer than any write `u` would otherwise take back.
pub fn claims_undo(st: &Snooze, cx: &Cx) -> bool {
    let Some((uuid, at)) = &st.last else { return false };
    st.asleep.contains_key(uuid)
        && cx.now < *at + chrono::Duration::seconds(crate::tui::shared::UNDO_WINDOW_SECS)
        && cx.undo_at.is_none_or(|w| w < *at)
}

/// `u` right after a snooze: the conversation is back in its views as it
/// was (not marked `back`: it never left the agent's hands).
pub fn undo(st: &mut Snooze, cx: &Cx, out: &mut O) {
    let Some((uuid, _)) = st.last.take() else { return };
    let Some(e) = st.asleep.remove(&uuid) else { return };
    badge(out, &uuid, SNOOZED, false);
    let name = cx.contacts.label(&uuid).unwrap_or(e.name);
    out.toast(ToastKind::Success, format!("snooze undone: {}", clean(&name)));
    keep(st, out, [uuid.as_str()]);
}

/// Wakes `uuid`: it comes back into its views, marked `back`.
fn wake(st: &mut Snooze, cx: &Cx, out: &mut O, uuid: &str, why: &str) {
    let Some(e) = st.asleep.remove(uuid) else { return };
    if st.last.as_ref().is_some_and(|(u, _)| u == uuid) {
        st.last = None;
    }
    badge(out, uuid, SNOOZED, false);
    if cx.open != Some(uuid) {
        st.back.insert(uuid.to_string());
        badge(out, uuid, BACK, true);
    }
    let name = cx.contacts.label(uuid).unwrap_or(e.name);
    out.toast(ToastKind::Info, format!("{} is back ({why})", clean(&name)));
    keep(st, out, [uuid]);
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
        keep(st, out, [open]);
    }
    // A hub that could not be read at start is asked again.
    if st.reload_due(cx.now) {
        st.asked = Some(cx.now);
        let load = SnoozeEffect::Load {
            account: st.account.clone(),
        };
        emit(st, out, load);
    }
    if st.check_due(cx.now) {
        st.checked = Some(cx.now);
        let check = SnoozeEffect::Check {
            account: st.account.clone(),
            seen: st.stamp.clone(),
        };
        emit(st, out, check);
    }
}

/// What the effects answer: the kept snoozes (merged with any made before
/// they arrived), or why keeping failed.
pub fn on_msg(st: &mut Snooze, cx: &Cx, out: &mut O, msg: SnoozeMsg) {
    match msg {
        // A second read asked for while the first was under way.
        SnoozeMsg::Loaded(Ok(_)) if st.loaded => {}
        SnoozeMsg::Loaded(Ok(kept)) => {
            // Snoozed (or marked) this session before the file was read.
            let made: Vec<String> = st.asleep.keys().chain(&st.back).cloned().collect();
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
            if !made.is_empty() {
                keep(st, out, made.iter().map(String::as_str));
            }
            // What came due while frontdesk was closed wakes now.
            tick(st, cx, out);
        }
        SnoozeMsg::Loaded(Err(e)) => {
            if !st.load_failed {
                st.load_failed = true;
                let again = if st.hub.is_some() { "; asking the hub again" } else { "" };
                out.toast(ToastKind::Error, format!("{}{again}", clean(&e)));
            }
        }
        SnoozeMsg::Saved(result) => {
            st.saving = st.saving.saturating_sub(1);
            if let Err(e) = result {
                out.toast(ToastKind::Error, clean(&e));
            }
        }
        // A write of ours is under way: the file read may not hold it yet,
        // so it is read again at the next check.
        SnoozeMsg::Changed { .. } if st.saving > 0 => st.stamp = None,
        SnoozeMsg::Changed { stamp, kept } => {
            let fresh = st.stamp != stamp;
            st.stamp = stamp;
            match kept {
                Ok(kept) => follow(st, cx, out, kept),
                // Said once for each version of the file, not at every check.
                Err(e) if fresh => out.toast(ToastKind::Error, clean(&e)),
                Err(_) => {}
            }
        }
        SnoozeMsg::Unchanged => {}
    }
}

/// The file as another process left it: what it snoozed sleeps here too
/// (its rows badged), what it woke wakes, and what is marked back follows.
fn follow(st: &mut Snooze, cx: &Cx, out: &mut O, kept: crate::tui::snooze::state::Kept) {
    let woken: Vec<String> = st
        .asleep
        .keys()
        .filter(|u| !kept.asleep.contains_key(*u))
        .cloned()
        .collect();
    for uuid in woken {
        st.asleep.remove(&uuid);
        badge(out, &uuid, SNOOZED, false);
    }
    let mut news: Vec<(String, Entry)> = Vec::new();
    for (uuid, e) in kept.asleep {
        if st.asleep.get(&uuid) == Some(&e) {
            continue;
        }
        badge(out, &uuid, SNOOZED, true);
        if !st.asleep.contains_key(&uuid) {
            news.push((uuid.clone(), e.clone()));
        }
        st.asleep.insert(uuid, e);
    }
    let back: std::collections::BTreeSet<String> =
        kept.back.into_iter().filter(|u| !st.asleep.contains_key(u)).collect();
    for uuid in st.back.difference(&back) {
        badge(out, uuid, BACK, false);
    }
    for uuid in back.difference(&st.back) {
        badge(out, uuid, BACK, true);
    }
    st.back = back;
    let now = crate::tui::zone::local(cx.now, cx.session.tz);
    match news.as_slice() {
        [] => {}
        [(uuid, e)] => {
            let name = cx.contacts.label(uuid).unwrap_or_else(|| e.name.clone());
            let by = e.by.as_deref().unwrap_or("another frontdesk");
            out.toast(
                ToastKind::Info,
                format!(
                    "{} snoozed {} {}; z wakes it",
                    clean(by),
                    clean(&name),
                    e.until.describe(&now)
                ),
            );
        }
        many => out.toast(
            ToastKind::Info,
            format!("{} conversations were snoozed elsewhere", many.len()),
        ),
    }
    // What came due meanwhile wakes now.
    tick(st, cx, out);
}
