//! `update` as the user meets it: every action, success and failure.

use crossterm::event::KeyCode;

use super::*;
use crate::api::{ApiError, BotAction, ContactFilter, CustomStatus, CustomStatusChange, PageRequest, UserStatus};
use crate::tui::fixtures::*;
use crate::tui::keymap::KEYMAP;
use crate::tui::model::{FormKind, Overlay};
use crate::tui::msg::{ListFetch, ThreadFetch, WriteKind};

fn err() -> ApiError {
    ApiError::Validation {
        message: "note is too long".into(),
        fields: Default::default(),
    }
}

/// Sends the debounce result if the effects asked for one.
fn settle(m: &mut Model, fx: &[Effect]) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in fx {
        if let Effect::Debounce { id, .. } = e {
            out.extend(update(m, Msg::SelectionSettled(*id)));
        }
    }
    out
}

/// `update` plus the debounce firing at once.
fn step(m: &mut Model, msg: Msg) -> Vec<Effect> {
    let fx = update(m, msg);
    let mut more = settle(m, &fx);
    more.extend(fx);
    more
}

fn thread_fetch(fx: &[Effect]) -> Option<(u64, String, ThreadFetch, PageRequest)> {
    fx.iter().find_map(|e| match e {
        Effect::FetchThread { id, contact, fetch, at } => Some((*id, contact.clone(), *fetch, at.clone())),
        _ => None,
    })
}

fn list_fetch(fx: &[Effect]) -> Option<(u64, u64, ListFetch, ContactFilter, PageRequest)> {
    fx.iter().find_map(|e| match e {
        Effect::FetchContacts {
            id,
            generation,
            fetch,
            filter,
            at,
        } => Some((*id, *generation, *fetch, filter.clone(), at.clone())),
        _ => None,
    })
}

fn type_text(m: &mut Model, s: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in s.chars() {
        fx.extend(update(m, key(c)));
    }
    fx
}

fn submit(m: &mut Model) -> Vec<Effect> {
    update(m, ctrl('s'))
}

fn patch_of(fx: &[Effect]) -> (u64, String, WriteKind, crate::api::ContactPatch) {
    fx.iter()
        .find_map(|e| match e {
            Effect::Patch { id, uuid, kind, patch } => Some((*id, uuid.clone(), *kind, patch.clone())),
            _ => None,
        })
        .expect("a PATCH effect")
}

fn form_error(m: &Model) -> Option<String> {
    match &m.overlay {
        Some(Overlay::Form { form, .. }) => {
            let _ = form;
            Some(format!("{:?}", form))
        }
        _ => None,
    }
}

#[test]
fn first_page_shows_and_loads_the_first_contact_at_once() {
    let mut m = empty_model(160, 48);
    let fx = startup(&mut m);
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("first page requested");
    assert_eq!((fetch, at), (ListFetch::Next, PageRequest::First));
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(0..20), Some("c1"))),
        },
    );
    assert_eq!(m.list.contacts.len(), 20);
    let (_, who, f, _) = thread_fetch(&fx).expect("thread of the first contact, no debounce");
    assert_eq!((who.as_str(), f), (contact(0).uuid.as_str(), ThreadFetch::Initial));
    assert!(fx.iter().any(|e| matches!(e, Effect::FetchBot { .. })));
    assert!(fx.iter().any(|e| matches!(e, Effect::FetchContact { .. })));
}

#[test]
fn j_and_k_move_and_debounce_the_thread_load() {
    let mut m = model_with(20, 160, 48);
    let fx1 = update(&mut m, key('j'));
    let fx2 = update(&mut m, key('j'));
    assert_eq!(m.list.selected, 2);
    assert!(thread_fetch(&fx1).is_none(), "no request per row");
    // Only the last debounce counts.
    assert!(settle(&mut m, &fx1).is_empty());
    let fx = settle(&mut m, &fx2);
    assert_eq!(thread_fetch(&fx).unwrap().1, contact(2).uuid);
    update(&mut m, code(KeyCode::Up));
    assert_eq!(m.list.selected, 1);
    update(&mut m, key('g'));
    assert_eq!(m.list.selected, 0);
    update(&mut m, code(KeyCode::PageDown));
    assert!(m.list.selected > 10);
    update(&mut m, code(KeyCode::PageUp));
    assert_eq!(m.list.selected, 0);
}

#[test]
fn stale_thread_for_a_previous_contact_is_dropped() {
    let mut m = model_with(20, 160, 48);
    let (old_id, old_uuid, ..) = {
        let fx = step(&mut m, key('j'));
        thread_fetch(&fx).unwrap()
    };
    let fx = step(&mut m, key('j'));
    let (new_id, new_uuid, ..) = thread_fetch(&fx).unwrap();
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: old_id,
            contact: old_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        },
    );
    assert!(m.thread.messages.is_empty(), "the old contact's thread must not show");
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: new_id,
            contact: new_uuid,
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(4), None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 4);
    // Oldest first on screen.
    assert!(m.thread.messages[0].created_at < m.thread.messages[3].created_at);
}

#[test]
fn prefetch_triggers_near_the_end() {
    let m = model_with(20, 160, 48);
    // 48 rows tall: a screen is more than 20 rows, so the next page was asked already.
    assert!(m.list.loading.is_some());
    let mut m = model_with(60, 80, 24);
    assert!(m.list.loading.is_none(), "far from the end: no request yet");
    let screen = m.list_height();
    for _ in 0..(60 - screen - 1) {
        assert!(
            list_fetch(&update(&mut m, key('j'))).is_none(),
            "no fetch while far from the end"
        );
    }
    let fx = update(&mut m, key('j'));
    let (_, _, fetch, _, at) = list_fetch(&fx).expect("prefetch within a screen of the end");
    assert_eq!((fetch, at), (ListFetch::Next, PageRequest::After("c1".into())));
}

#[test]
fn bottom_goes_to_the_end_and_keeps_loading() {
    let mut m = model_with(60, 80, 24);
    let fx = update(&mut m, key('G'));
    assert_eq!(m.list.selected, 59);
    let (id, generation, fetch, ..) = list_fetch(&fx).expect("next page");
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(60..80), Some("c2"))),
        },
    );
    assert_eq!(m.list.selected, 79, "follows the end");
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("and keeps loading");
    assert_eq!(at, PageRequest::After("c2".into()));
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(contacts(80..90), None)),
        },
    );
    assert_eq!(m.list.selected, 89);
    assert!(m.list.exhausted && !m.list.follow_end);
}

#[test]
fn filter_change_drops_late_pages_of_the_old_filter() {
    let mut m = model_with(60, 80, 24);
    for _ in 0..50 {
        update(&mut m, key('j'));
    }
    let (old_id, old_gen, ..) = (m.list.loading.unwrap(), m.list.generation);
    update(&mut m, key('f'));
    assert!(matches!(
        m.overlay,
        Some(Overlay::Form {
            kind: FormKind::Filter,
            ..
        })
    ));
    type_text(&mut m, "instagram");
    let fx = submit(&mut m);
    assert!(m.overlay.is_none());
    let (id, generation, _, filter, at) = list_fetch(&fx).expect("first page of the new filter");
    assert_eq!(filter.source.as_deref(), Some("instagram"));
    assert_eq!(at, PageRequest::First);
    assert_ne!(generation, old_gen);
    assert!(m.list.contacts.is_empty());
    // The old filter's page arrives late: dropped.
    update(
        &mut m,
        Msg::ContactsLoaded {
            id: old_id,
            generation: old_gen,
            fetch: ListFetch::Next,
            result: Ok(page(contacts(60..80), None)),
        },
    );
    assert!(m.list.contacts.is_empty());
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch: ListFetch::Next,
            result: Ok(page(contacts(1..3), Some("n1"))),
        },
    );
    assert_eq!(m.list.contacts.len(), 2);
    // The filter is resent with the cursor.
    let (_, _, _, filter, at) = list_fetch(&fx).expect("next page");
    assert_eq!(
        (filter.source.as_deref(), at),
        (Some("instagram"), PageRequest::After("n1".into()))
    );
}

#[test]
fn refresh_merges_by_uuid_and_keeps_the_selection() {
    let mut m = model_with(20, 160, 48);
    m.session.bell = true;
    let fx = step(&mut m, key('j'));
    let _ = fx;
    update(&mut m, key('j'));
    let selected = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, Msg::RefreshDue);
    let (id, generation, fetch, _, at) = list_fetch(&fx).expect("refresh of the first page");
    assert_eq!((fetch, at), (ListFetch::Refresh, PageRequest::First));
    let mut changed = contact(5);
    changed.name = "Renamed".into();
    changed.last_message_at = Some(now());
    let fresh = contact(500);
    let fx = update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch,
            result: Ok(page(vec![fresh, changed], Some("x"))),
        },
    );
    assert_eq!(m.list.contacts.len(), 21);
    assert_eq!(m.list.contacts[0].uuid, contact(500).uuid, "new contact on top");
    assert_eq!(m.list.selected_uuid().unwrap(), selected, "selection kept by uuid");
    let c5 = m.list.contacts.iter().find(|c| c.uuid == contact(5).uuid).unwrap();
    assert_eq!(c5.name, "Renamed");
    assert!(m.list.has_new(c5), "new message marked");
    assert!(fx.contains(&Effect::Bell));
}

#[test]
fn search_filters_as_you_type_enter_keeps_esc_clears() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('/'));
    type_text(&mut m, "bruce");
    assert_eq!(m.list.visible_len(), 1);
    assert_eq!(m.list.selected_contact().unwrap().uuid, contact(2).uuid);
    update(&mut m, code(KeyCode::Enter));
    assert!(!m.list.search.as_ref().unwrap().editing);
    assert_eq!(m.list.visible_len(), 1, "Enter keeps the filtered view");
    update(&mut m, key('j')); // keys act again
    update(&mut m, code(KeyCode::Esc));
    assert!(m.list.search.is_none());
    assert_eq!(m.list.visible_len(), 20);
    assert_eq!(
        m.list.selected_contact().unwrap().uuid,
        contact(2).uuid,
        "selection survives"
    );
    // By tag and phone too.
    update(&mut m, key('/'));
    type_text(&mut m, "urgent");
    assert!(m.list.visible_len() >= 1);
    assert!(m.list.row(0).unwrap().tags.contains(&"urgent".to_string()));
}

#[test]
fn close_is_optimistic_and_rolled_back_on_error() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::Close { id, .. } = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    assert!(!m.list.selected_contact().unwrap().is_open(), "closed at once");
    assert!(m.list.pending.contains_key(&uuid), "row shows the request");
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid: uuid.clone(),
            kind: WriteKind::Close,
            result: Err(ApiError::Transport("down".into())),
        },
    );
    assert!(m.list.selected_contact().unwrap().is_open(), "rolled back");
    assert!(m.list.pending.is_empty());
    assert!(m.status.current().unwrap().text.contains("could not reach the server"));
}

#[test]
fn close_then_reopen_succeed() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::Close { id, .. } = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    let mut closed = contact(0);
    closed.closed_at = Some(now());
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid: uuid.clone(),
            kind: WriteKind::Close,
            result: Ok(closed.clone()),
        },
    );
    assert_eq!(m.list.selected_contact().unwrap().closed_at, Some(now()));
    assert!(m.status.current().unwrap().text.contains("conversation closed"));
    let fx = update(&mut m, key('c'));
    assert!(fx.iter().any(|e| matches!(e, Effect::Reopen { .. })));
    assert!(m.list.selected_contact().unwrap().is_open());
}

#[test]
fn close_and_next_moves_to_the_next_open_one() {
    let mut m = model_with(20, 160, 48);
    for _ in 0..3 {
        update(&mut m, key('j'));
    }
    // Row 4 is closed in the fixtures: C skips it.
    let fx = update(&mut m, key('C'));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Close { uuid, .. } if *uuid == contact(3).uuid))
    );
    assert_eq!(m.list.selected, 5);
}

#[test]
fn note_saves_and_a_failed_save_keeps_the_draft() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    update(&mut m, key('n'));
    assert!(matches!(
        m.overlay,
        Some(Overlay::Form {
            kind: FormKind::Write(WriteKind::Note),
            ..
        })
    ));
    type_text(&mut m, "call back");
    let fx = submit(&mut m);
    let (id, puuid, kind, patch) = patch_of(&fx);
    assert_eq!((puuid.as_str(), kind), (uuid.as_str(), WriteKind::Note));
    assert_eq!(patch.note.as_deref(), Some("call back"));
    assert!(m.list.pending.contains_key(&uuid));
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid: uuid.clone(),
            kind,
            result: Err(err()),
        },
    );
    // The form stays, shows the server's message, and is a draft.
    assert!(form_error(&m).unwrap().contains("note is too long"));
    assert!(m.status.current().unwrap().text.contains("note is too long"));
    update(&mut m, code(KeyCode::Esc));
    assert!(m.overlay.is_none());
    update(&mut m, key('n'));
    let Some(Overlay::Form { form, .. }) = &m.overlay else {
        panic!("note form")
    };
    assert!(format!("{form:?}").contains("call back"), "the draft reopens");
    // Retry succeeds: the draft is gone.
    let fx = submit(&mut m);
    let (id, _, kind, _) = patch_of(&fx);
    let mut saved = contact(0);
    saved.note = Some("call back".into());
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid: uuid.clone(),
            kind,
            result: Ok(saved),
        },
    );
    assert!(m.overlay.is_none());
    assert!(m.drafts.is_empty());
    assert_eq!(m.list.selected_contact().unwrap().note.as_deref(), Some("call back"));
}

#[test]
fn failed_save_after_the_form_closed_is_kept_as_a_draft() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    update(&mut m, key('t'));
    type_text(&mut m, "newtag");
    update(&mut m, code(KeyCode::Enter)); // adds the typed tag
    let fx = submit(&mut m);
    let (id, _, kind, patch) = patch_of(&fx);
    assert_eq!(kind, WriteKind::Tags);
    assert!(patch.tags.unwrap().contains(&"newtag".to_string()));
    update(&mut m, code(KeyCode::Esc)); // walk away while it saves
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid,
            kind,
            result: Err(err()),
        },
    );
    update(&mut m, key('t'));
    let Some(Overlay::Form { form, .. }) = &m.overlay else {
        panic!("tags form")
    };
    assert!(format!("{form:?}").contains("newtag"));
}

#[test]
fn edit_assign_team_and_new_contact_send_their_requests() {
    let mut m = model_with(20, 160, 48);
    m.known.add_team("team-2", "Sales");
    for (k, kind, input) in [
        ('e', WriteKind::Edit, "x"),
        ('a', WriteKind::Assign, "boss@example.test"),
        ('T', WriteKind::Team, "Sales"),
    ] {
        update(&mut m, key(k));
        assert!(
            matches!(m.overlay, Some(Overlay::Form { kind: FormKind::Write(w), .. }) if w == kind),
            "{k} opens its form"
        );
        type_text(&mut m, input);
        let fx = submit(&mut m);
        let (id, uuid, pk, patch) = patch_of(&fx);
        assert_eq!(pk, kind);
        match kind {
            WriteKind::Edit => assert_eq!(patch.name.as_deref(), Some("Ana Souzax")),
            WriteKind::Assign => assert_eq!(patch.assigned_user.as_deref(), Some("boss@example.test")),
            _ => assert_eq!(patch.team_uuid.as_deref(), Some("team-2")),
        }
        update(
            &mut m,
            Msg::WriteDone {
                id,
                uuid,
                kind,
                result: Ok(contact(0)),
            },
        );
        assert!(m.overlay.is_none());
        assert!(m.status.current().unwrap().text.contains(kind.done()));
    }
    update(&mut m, key('N'));
    type_text(&mut m, "+5511999");
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Tab));
    type_text(&mut m, "New person");
    let fx = submit(&mut m);
    let (id, body) = fx
        .iter()
        .find_map(|e| {
            if let Effect::Create { id, body } = e {
                Some((*id, body.clone()))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(body.identifier, "+5511999");
    let created = contact(900);
    update(
        &mut m,
        Msg::WriteDone {
            id,
            uuid: String::new(),
            kind: WriteKind::NewContact,
            result: Ok(created.clone()),
        },
    );
    assert_eq!(m.list.selected_uuid(), Some(created.uuid));
}

#[test]
fn invalid_form_input_stays_in_the_form_without_a_request() {
    let mut m = model_with(20, 160, 48);
    update(&mut m, key('N'));
    let fx = submit(&mut m); // no identifier
    assert!(fx.is_empty());
    assert!(form_error(&m).unwrap().contains("identifier"));
}

#[test]
fn bot_toggles_and_reports() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let id = m.details.bot.loading.unwrap();
    update(
        &mut m,
        Msg::BotLoaded {
            id,
            uuid: uuid.clone(),
            result: Ok(bot(true)),
        },
    );
    assert_eq!(m.list.bots.get(&uuid), Some(&true));
    let fx = update(&mut m, key('b'));
    let (id, action) = fx
        .iter()
        .find_map(|e| {
            if let Effect::SetBot { id, action, .. } = e {
                Some((*id, *action))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(action, BotAction::End);
    update(
        &mut m,
        Msg::BotSet {
            id,
            uuid: uuid.clone(),
            result: Ok(bot(false)),
        },
    );
    assert!(!m.details.bot.bot.as_ref().unwrap().is_running());
    assert!(m.status.current().unwrap().text.contains("bot stopped"));
    let fx = update(&mut m, key('b'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::SetBot { id, .. } = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    update(
        &mut m,
        Msg::BotSet {
            id,
            uuid,
            result: Err(ApiError::Rejected {
                status: 409,
                message: "no bot".into(),
            }),
        },
    );
    assert!(m.status.current().unwrap().text.contains("no bot"));
    assert!(m.details.bot.pending.is_none());
}

#[test]
fn availability_toggles_optimistically_and_rolls_back() {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('v'));
    let (id, update_body) = fx
        .iter()
        .find_map(|e| {
            if let Effect::SetUserStatus { id, update, .. } = e {
                Some((*id, update.clone()))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(update_body.available, Some(true));
    assert_eq!(m.availability.available, Some(true));
    update(
        &mut m,
        Msg::UserStatusSet {
            id,
            result: Err(ApiError::Transport("down".into())),
        },
    );
    assert_eq!(m.availability.available, None, "rolled back");
    let fx = update(&mut m, key('v'));
    let id = fx
        .iter()
        .find_map(|e| {
            if let Effect::SetUserStatus { id, .. } = e {
                Some(*id)
            } else {
                None
            }
        })
        .unwrap();
    let status: UserStatus =
        serde_json::from_str(r#"{"appearance":{"available":true},"custom_status":{"id":"cs1","name":"Lunch"}}"#)
            .unwrap();
    update(&mut m, Msg::UserStatusSet { id, result: Ok(status) });
    assert_eq!(m.availability.available, Some(true));
    assert_eq!(m.availability.custom_status.as_ref().unwrap().1, "Lunch");
}

#[test]
fn availability_without_a_user_shows_the_hint() {
    let mut m = model_with(20, 160, 48);
    m.availability.user = None;
    assert!(update(&mut m, key('v')).is_empty());
    assert!(m.status.current().unwrap().text.contains("user_uuid"));
    update(&mut m, key('s'));
    assert!(m.overlay.is_none());
}

#[test]
fn custom_status_picker_sets_and_clears() {
    let mut m = model_with(20, 160, 48);
    update(
        &mut m,
        Msg::CustomStatusesLoaded(Err(ApiError::NotOffered {
            what: "custom statuses".into(),
        })),
    );
    update(&mut m, key('s'));
    assert!(m.overlay.is_none());
    assert!(
        m.status
            .current()
            .unwrap()
            .text
            .contains("does not offer custom statuses")
    );
    let cs = CustomStatus {
        id: "cs1".into(),
        name: "Lunch".into(),
        emoji: "🍔".into(),
        ..Default::default()
    };
    update(&mut m, Msg::CustomStatusesLoaded(Ok(vec![cs])));
    update(&mut m, key('s'));
    assert!(matches!(m.overlay, Some(Overlay::CustomStatus(_))));
    type_text(&mut m, "lunch");
    let fx = update(&mut m, code(KeyCode::Enter));
    let body = fx.iter().find_map(|e| {
        if let Effect::SetUserStatus { update, .. } = e {
            Some(update.clone())
        } else {
            None
        }
    });
    assert_eq!(body.unwrap().custom_status, CustomStatusChange::Set("cs1".into()));
    let id = m.availability.pending.unwrap();
    let status: UserStatus = serde_json::from_str(r#"{"custom_status":{"id":"cs1","name":"Lunch"}}"#).unwrap();
    update(&mut m, Msg::UserStatusSet { id, result: Ok(status) });
    assert_eq!(m.status.current().unwrap().text, "custom status: Lunch");
}

#[test]
fn copy_link_writes_osc52_and_says_so() {
    let mut m = model_with(20, 160, 48);
    let fx = update(&mut m, key('y'));
    assert!(fx.contains(&Effect::CopyToClipboard(contact(0).conversation_href.unwrap())));
    assert!(m.status.current().unwrap().text.contains("copied"));
}

#[test]
fn refresh_key_redraw_quit_and_panes() {
    let mut m = model_with(20, 80, 24);
    let fx = update(&mut m, key('r'));
    assert!(list_fetch(&fx).is_some_and(|f| f.2 == ListFetch::Refresh));
    assert!(thread_fetch(&fx).is_none() || m.thread.loading.is_none());
    assert_eq!(update(&mut m, ctrl('l')), vec![Effect::Redraw]);
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus, Pane::Details);
    update(&mut m, code(KeyCode::BackTab));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, key('q'));
    assert!(m.quit);
}

#[test]
fn help_lists_every_keymap_entry() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('?'));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
    let text: String = crate::tui::view::overlay::help_lines(&crate::tui::theme::Theme::plain())
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    for b in KEYMAP {
        assert!(text.contains(b.help) && text.contains(b.label), "{} in help", b.name);
    }
    update(&mut m, code(KeyCode::Esc));
    assert!(m.overlay.is_none());
}

#[test]
fn palette_runs_an_action() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key(':'));
    assert!(matches!(m.overlay, Some(Overlay::Palette(_))));
    type_text(&mut m, "close-reopen");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(m.overlay.is_none());
    assert!(fx.iter().any(|e| matches!(e, Effect::Close { .. })));
    update(&mut m, ctrl('k'));
    assert!(matches!(m.overlay, Some(Overlay::Palette(_))));
    type_text(&mut m, "help");
    update(&mut m, code(KeyCode::Enter));
    assert!(matches!(m.overlay, Some(Overlay::Help { .. })));
}

#[test]
fn thread_scrolls_up_fetches_older_and_keeps_the_view() {
    let mut m = model_with(20, 160, 48);
    let (id, uuid, ..) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    let fx = update(
        &mut m,
        Msg::ThreadLoaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(20), Some("old1"))),
        },
    );
    assert!(thread_fetch(&fx).is_none(), "a full screen: nothing older yet");
    update(&mut m, code(KeyCode::Tab));
    let fx = update(&mut m, key('g')); // to the top
    let (oid, _, f, at) = thread_fetch(&fx).expect("older batch");
    assert_eq!((f, at), (ThreadFetch::Older, PageRequest::After("old1".into())));
    let scroll = m.thread.scroll;
    let first = m.thread.messages[0].clone();
    let mut older = messages(5);
    for (i, msg) in older.iter_mut().enumerate() {
        msg.uuid = Some(format!("old{i}"));
        msg.created_at = msg.created_at.map(|t| t - chrono::Duration::days(3));
    }
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: oid,
            contact: uuid,
            fetch: ThreadFetch::Older,
            result: Ok(page(older, None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 25);
    assert_eq!(m.thread.messages[5], first);
    assert_eq!(
        m.thread.scroll, scroll,
        "lines from the bottom unchanged: the view stays"
    );
    update(&mut m, key('G'));
    assert_eq!(m.thread.scroll, 0);
}

#[test]
fn thread_refresh_appends_new_messages() {
    let mut m = model_with(20, 160, 48);
    let (id, uuid) = (m.thread.loading.unwrap(), m.thread.contact.clone().unwrap());
    update(
        &mut m,
        Msg::ThreadLoaded {
            id,
            contact: uuid.clone(),
            fetch: ThreadFetch::Initial,
            result: Ok(page(messages(3), None)),
        },
    );
    let fx = update(&mut m, Msg::RefreshDue);
    let (rid, ..) = fx
        .iter()
        .find_map(|e| match e {
            Effect::FetchThread {
                id,
                fetch: ThreadFetch::Refresh,
                ..
            } => Some((*id,)),
            _ => None,
        })
        .expect("thread refresh");
    let mut newest = messages(3);
    let mut new_msg = newest[0].clone();
    new_msg.uuid = Some("fresh".into());
    new_msg.created_at = Some(now());
    newest.insert(0, new_msg);
    update(
        &mut m,
        Msg::ThreadLoaded {
            id: rid,
            contact: uuid,
            fetch: ThreadFetch::Refresh,
            result: Ok(page(newest, None)),
        },
    );
    assert_eq!(m.thread.messages.len(), 4);
    assert_eq!(m.thread.messages[3].uuid.as_deref(), Some("fresh"));
    assert_eq!(m.thread.new_from, Some(3));
}

#[test]
fn toasts_expire_with_the_clock() {
    let mut m = model_with(5, 160, 48);
    update(&mut m, key('y'));
    assert!(m.status.current().is_some());
    update(&mut m, Msg::Tick(now() + chrono::Duration::seconds(30)));
    assert!(m.status.current().is_none());
}

#[test]
fn narrow_enter_opens_the_thread() {
    let mut m = model_with(5, 80, 24);
    assert!(!m.is_wide());
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.focus, Pane::Thread);
    update(&mut m, Msg::Resize(160, 48));
    assert!(m.is_wide());
}

#[test]
fn my_status_is_read_from_team_members_when_my_email_is_known() {
    let mut m = model_with(5, 160, 48);
    m.availability.email = Some("me@example.test".into());
    let me: crate::api::TeamMember = serde_json::from_str(
        r#"{"email":"me@example.test","name":"Me","available":false,"userCustomStatus":{"id":"cs9","name":"Lunch"}}"#,
    )
    .unwrap();
    let other: crate::api::TeamMember =
        serde_json::from_str(r#"{"email":"x@example.test","name":"X","available":true}"#).unwrap();
    update(
        &mut m,
        Msg::TeamMembersLoaded {
            team: "t".into(),
            result: Ok(vec![other, me]),
        },
    );
    assert_eq!(m.availability.available, Some(false));
    assert_eq!(m.availability.custom_status, Some(("cs9".into(), "Lunch".into())));
    assert!(m.known.collaborators.contains(&"x@example.test".to_string()));
}
