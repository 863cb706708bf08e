use super::*;
use crate::tui::fixtures::{contact, empty_model, now};

fn failed_model() -> Model {
    let mut m = empty_model(120, 30);
    m.now = now();
    m.list.error = Some("could not reach the server: connection refused".into());
    m
}

#[test]
fn counts_down_then_asks_for_a_refresh_and_waits_longer() {
    let mut m = failed_model();
    let mut r = Reconnect::new("api.example.com", "could not reach the server: refused", m.now);
    let step = r.step(&mut m).expect("still trying");
    assert!(step.due.is_none() && step.changed);
    let shown = &m.status.current().expect("a toast").text;
    assert!(
        shown.starts_with("cannot reach api.example.com, retrying in 2 s: could not reach"),
        "{shown}"
    );

    m.now += Duration::seconds(2);
    let step = r.step(&mut m).expect("still trying");
    assert!(matches!(step.due, Some(Msg::RefreshDue)));
    assert!(m.status.current().unwrap().text.contains("retrying in 4 s: "));
    // One toast of its own, replaced, never piled up.
    let mine = m
        .status
        .toasts
        .iter()
        .filter(|t| t.text.starts_with("cannot reach"))
        .count();
    assert_eq!(mine, 1);
}

#[test]
fn ends_once_contacts_arrive() {
    let mut m = failed_model();
    let mut r = Reconnect::new("h", "e", m.now);
    r.step(&mut m);
    m.list.store.push(contact(1));
    assert!(r.step(&mut m).is_none());
    assert!(m.status.toasts.iter().all(|t| !t.text.starts_with("cannot reach")));
    assert_eq!(m.status.current().unwrap().text, "connected to h");
}

#[test]
fn the_host_and_the_error_are_shown_inert() {
    let m = failed_model();
    let r = Reconnect::new("h\u{1b}[2J", "bad\u{9b}31m", m.now);
    let text = r.text(m.now);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{9b}'), "{text:?}");
}
