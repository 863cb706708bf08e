use super::*;
use crate::tui::keymap::DEFAULT_KEYS as KEYS;
use crossterm::event::{KeyCode, KeyModifiers};

fn k(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn empty_query_keeps_order() {
    assert_eq!(fuzzy_filter("", ["b", "a", "c"]), vec![0, 1, 2]);
    assert_eq!(fuzzy_filter("  ", ["b", "a"]), vec![0, 1]);
}

#[test]
fn ranks_best_first_and_drops_non_matches() {
    let hay = ["close conversation", "assign", "close and next", "help"];
    let r = fuzzy_filter("clnx", hay);
    assert_eq!(r, vec![2]);
    let r = fuzzy_filter("close", hay);
    assert_eq!(r.len(), 2);
    assert!(!r.contains(&1));
}

#[test]
fn smart_case() {
    let hay = ["Alice", "alice", "ALICE"];
    assert_eq!(fuzzy_filter("alice", hay).len(), 3);
    assert_eq!(fuzzy_filter("Alice", hay), vec![0]);
}

#[test]
fn unicode_haystacks_do_not_panic() {
    let hay = ["你好世界", "مرحبا", "👍🏽 ok", "e\u{301}", "\u{1b}[2J"];
    assert_eq!(fuzzy_filter("你好", hay), vec![0]);
    let _ = fuzzy_filter("👍", hay);
    let _ = fuzzy_filter("\u{1b}", hay);
}

#[test]
fn hundred_thousand_haystacks_are_quick() {
    let hay: Vec<String> = (0..100_000)
        .map(|i| format!("Contact number {i} source messaging_app"))
        .collect();
    let t = std::time::Instant::now();
    let r = fuzzy_filter("num 9999", hay.iter().map(String::as_str));
    assert!(r.contains(&9999));
    // Generous bound for a debug build on a shared machine.
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "took {:?}",
        t.elapsed()
    );
}

fn items() -> Vec<PickItem> {
    ["Close", "Assign", "Tags", "Note"]
        .iter()
        .map(|l| PickItem {
            label: l.to_string(),
            detail: format!("{l} detail"),
            key: l.to_lowercase(),
        })
        .collect()
}

#[test]
fn typing_filters_and_enter_chooses() {
    let mut p = FuzzyPicker::new("Palette", items());
    for c in "tag".chars() {
        assert_eq!(p.handle_key(&KEYS, k(KeyCode::Char(c))), PickOutcome::Pending);
    }
    assert_eq!(p.query(), "tag");
    assert_eq!(
        p.handle_key(&KEYS, k(KeyCode::Enter)),
        PickOutcome::Chosen("tags".into())
    );
}

#[test]
fn moves_with_arrows_and_ctrl_keys() {
    let mut p = FuzzyPicker::new("Palette", items());
    p.handle_key(&KEYS, k(KeyCode::Down));
    p.handle_key(&KEYS, KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL));
    assert_eq!(p.highlighted(), Some("tags"));
    p.handle_key(&KEYS, KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
    p.handle_key(&KEYS, k(KeyCode::Up));
    p.handle_key(&KEYS, k(KeyCode::Up));
    assert_eq!(p.highlighted(), Some("close"));
    for _ in 0..10 {
        p.handle_key(&KEYS, k(KeyCode::Down));
    }
    assert_eq!(p.highlighted(), Some("note"));
}

#[test]
fn esc_cancels_and_enter_without_match_stays() {
    let mut p = FuzzyPicker::new("Palette", items());
    p.handle_paste("zzzz");
    assert_eq!(p.handle_key(&KEYS, k(KeyCode::Enter)), PickOutcome::Pending);
    assert_eq!(p.handle_key(&KEYS, k(KeyCode::Esc)), PickOutcome::Cancelled);
}
