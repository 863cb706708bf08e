//! A create that may have happened: the form says so and finds it.

use crossterm::event::KeyCode;

use crate::api::{ApiError, Contact};
use crate::tui::effect::Effect;
use crate::tui::effect::find::same_number;
use crate::tui::fixtures::{code, contact, ctrl, key, model_with};
use crate::tui::model::{Model, Overlay};
use crate::tui::msg::Msg;
use crate::tui::update::update;

fn type_text(m: &mut Model, s: &str) {
    for c in s.chars() {
        update(m, key(c));
    }
}

/// Opens N, types an identifier and a name, submits: the Create's id.
fn create(m: &mut Model, identifier: &str) -> u64 {
    update(m, key('N'));
    type_text(m, identifier);
    update(m, code(KeyCode::Tab));
    update(m, code(KeyCode::Tab));
    type_text(m, "New person");
    let fx = update(m, ctrl('s'));
    fx.iter()
        .find_map(|e| match e {
            Effect::Create { id, .. } => Some(*id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no create in {fx:?}"))
}

fn fail(m: &mut Model, id: u64, e: ApiError) {
    update(m, Msg::Created { id, result: Err(e) });
}

fn form_error(m: &Model) -> String {
    match &m.overlay {
        Some(Overlay::Form { form, .. }) => form.error().unwrap_or_default().to_string(),
        other => panic!("no form: {other:?}"),
    }
}

fn find_effect(fx: &[Effect]) -> Option<(u64, String)> {
    fx.iter().find_map(|e| match e {
        Effect::FindContact { id, identifier } => Some((*id, identifier.clone())),
        _ => None,
    })
}

/// A 502 to the POST, as the client reports it.
fn server_error() -> ApiError {
    ApiError::MaybeApplied {
        cause: Box::new(ApiError::Server {
            status: 502,
            message: "bad gateway".into(),
        }),
    }
}

#[test]
fn numbers_compare_by_digits() {
    assert!(same_number("+55 11 9999-0001", "+551199990001"));
    assert!(same_number(" 5511 (9) ", "55119"));
    assert!(!same_number("+5511", "5511"), "the + is part of the number");
    assert!(!same_number("", ""));
    assert!(!same_number("+55119", "+55118"));
}

#[test]
fn a_failed_create_that_may_have_happened_is_found_by_its_identifier() {
    let mut m = model_with(5, 160, 48);
    let id = create(&mut m, "+5511977");
    fail(&mut m, id, server_error());
    let e = form_error(&m);
    assert!(
        e.contains("bad gateway") && e.contains("may have been created") && e.contains("Ctrl-F"),
        "{e}"
    );
    assert_eq!(e.matches("may").count(), 1, "said once: {e}");
    let fx = update(&mut m, ctrl('f'));
    let (fid, identifier) = find_effect(&fx).expect("a lookup");
    assert_eq!(identifier, "+5511977");
    assert!(form_error(&m).contains("looking for +5511977"));
    let found = Contact {
        phone_number: "+5511977".into(),
        name: "New person".into(),
        ..contact(900)
    };
    update(
        &mut m,
        Msg::ContactFound {
            id: fid,
            identifier,
            result: Ok(Some(found.clone())),
        },
    );
    assert!(m.overlay.is_none(), "nothing left to send");
    assert_eq!(m.list.selected_uuid(), Some(found.uuid));
    assert_eq!(m.status.current().unwrap().text, "it was created after all: New person");
    // The draft is gone: N opens an empty form.
    update(&mut m, key('N'));
    assert_eq!(form_error(&m), "");
}

#[test]
fn not_found_means_not_created_and_ctrl_s_sends_again() {
    let mut m = model_with(5, 160, 48);
    let id = create(&mut m, "+5511977");
    let reset = ApiError::Transport("connection reset".into());
    fail(&mut m, id, ApiError::MaybeApplied { cause: Box::new(reset) });
    let (fid, identifier) = find_effect(&update(&mut m, ctrl('f'))).expect("a lookup");
    update(
        &mut m,
        Msg::ContactFound {
            id: fid,
            identifier,
            result: Ok(None),
        },
    );
    assert!(form_error(&m).contains("it was not created"), "{}", form_error(&m));
    assert!(find_effect(&update(&mut m, ctrl('f'))).is_none(), "asked and answered");
    let fx = update(&mut m, ctrl('s'));
    assert!(fx.iter().any(|e| matches!(e, Effect::Create { .. })), "{fx:?}");
}

#[test]
fn a_server_error_the_client_knows_changed_nothing_offers_no_lookup() {
    // A 503 to a retried call is not wrapped: nothing may have happened.
    let mut m = model_with(5, 160, 48);
    let id = create(&mut m, "+5511977");
    fail(
        &mut m,
        id,
        ApiError::Server {
            status: 503,
            message: "busy".into(),
        },
    );
    assert!(!form_error(&m).contains("Ctrl-F"), "{}", form_error(&m));
}

#[test]
fn a_refusal_offers_no_lookup() {
    let mut m = model_with(5, 160, 48);
    let id = create(&mut m, "+5511977");
    fail(
        &mut m,
        id,
        ApiError::Validation {
            message: "identifier is taken".into(),
            fields: Default::default(),
        },
    );
    let e = form_error(&m);
    assert!(!e.contains("Ctrl-F"), "{e}");
    assert!(find_effect(&update(&mut m, ctrl('f'))).is_none());
}

#[test]
fn a_failed_lookup_says_so_and_can_be_tried_again() {
    let mut m = model_with(5, 160, 48);
    let id = create(&mut m, "+5511977");
    fail(&mut m, id, server_error());
    let (fid, identifier) = find_effect(&update(&mut m, ctrl('f'))).expect("a lookup");
    // A stale answer is dropped.
    update(
        &mut m,
        Msg::ContactFound {
            id: fid + 100,
            identifier: identifier.clone(),
            result: Ok(None),
        },
    );
    assert!(form_error(&m).contains("looking for"));
    update(
        &mut m,
        Msg::ContactFound {
            id: fid,
            identifier,
            result: Err(ApiError::Timeout("15 s".into())),
        },
    );
    assert!(form_error(&m).contains("could not look for it"), "{}", form_error(&m));
    assert!(find_effect(&update(&mut m, ctrl('f'))).is_some());
}

#[test]
fn the_offer_is_readable_on_the_form_at_80x24_and_160x48() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    for (w, h) in [(80, 24), (160, 48)] {
        let mut m = model_with(5, w, h);
        let id = create(&mut m, "+5511977");
        fail(&mut m, id, server_error());
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| crate::tui::view::view(&m, f, &crate::tui::theme::Theme::plain()))
            .unwrap();
        let text: String = format!("{}", t.backend())
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains("Ctrl-F"), "at {w}x{h}: {text}");
    }
}
