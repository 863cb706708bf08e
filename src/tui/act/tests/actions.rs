use super::*;

#[test]
fn close_is_optimistic_and_rolled_back_on_error() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    let fx = update(&mut m, key('c'));
    let id = close_id(&fx);
    assert!(!m.list.selected_contact().unwrap().is_open(), "closed at once");
    assert!(m.list.pending.contains_key(&uuid), "row shows the request");
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: (Err(ApiError::Transport("down".into()))).into(),
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
    let id = close_id(&fx);
    let mut closed = contact(0);
    closed.closed_at = Some(now());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: (Ok(closed.clone())).into(),
        },
    );
    assert_eq!(m.list.selected_contact().unwrap().closed_at, Some(now()));
    assert!(m.status.current().unwrap().text.contains("closed (Ana Souza)"));
    let fx = update(&mut m, key('c'));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Apply {
            action: crate::triage::bulk::Action::Reopen,
            ..
        }
    )));
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
            .any(|e| matches!(e, Effect::Apply { uuid, action: crate::triage::bulk::Action::Close, .. } if *uuid == contact(3).uuid))
    );
    assert_eq!(m.list.view.selected, 5);
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
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: (Err(err())).into(),
        },
    );
    // The form stays, shows the server's message, and is a draft.
    assert_eq!(
        form_error(&m).as_deref(),
        Some("the server rejected the values: note is too long")
    );
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
    let (id, _, _, _) = patch_of(&fx);
    let mut saved = contact(0);
    saved.note = Some("call back".into());
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid: uuid.clone(),
            answer: (Ok(saved)).into(),
        },
    );
    assert!(m.overlay.is_none());
    assert!(m.act.drafts.is_empty());
    assert_eq!(m.list.selected_contact().unwrap().note.as_deref(), Some("call back"));
}

#[test]
fn failed_save_after_the_form_closed_is_kept_as_a_draft() {
    let mut m = model_with(20, 160, 48);
    let uuid = m.list.selected_uuid().unwrap();
    update(&mut m, key('t'));
    type_text(&mut m, "newtag");
    let fx = update(&mut m, code(KeyCode::Enter)); // adds the typed tag and saves
    let (id, _, kind, patch) = patch_of(&fx);
    assert_eq!(kind, WriteKind::Tags);
    assert!(patch.tags.unwrap().contains(&"newtag".to_string()));
    update(&mut m, code(KeyCode::Esc)); // walk away while it saves
    update(
        &mut m,
        Msg::Applied {
            id,
            uuid,
            answer: (Err(err())).into(),
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
            Msg::Applied {
                id,
                uuid,
                answer: (Ok(contact(0))).into(),
            },
        );
        assert!(m.overlay.is_none());
        let said = match kind {
            WriteKind::Edit => kind.done(),
            WriteKind::Assign => "assigned to boss@example.test (Ana Souza)",
            _ => "team set to Sales (Ana Souza)",
        };
        assert!(m.status.current().unwrap().text.contains(said));
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
        Msg::Created {
            id,
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
    assert_eq!(
        field_error(&m, &crate::tui::form::FieldId::Identifier).as_deref(),
        Some("required")
    );
    assert_eq!(form_error(&m), None, "nothing was sent, so no server message");
}
