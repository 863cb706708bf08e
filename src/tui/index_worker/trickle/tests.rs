use super::*;

fn preview(text: &str) -> Preview {
    Preview {
        who: None,
        text: text.into(),
        at: None,
        activity: None,
    }
}

#[test]
fn what_the_trickle_fetched_waits_until_due_then_goes_together() {
    let t0 = Instant::now();
    let mut t = Trickle::default();
    assert_eq!(t.due(), None, "nothing held, nothing due");
    t.hold(vec![("a".into(), preview("one"))], t0);
    t.hold(vec![("b".into(), preview("two"))], t0 + Duration::from_secs(2));
    assert_eq!(t.due(), Some(t0 + HOLD), "due from the first held");
    assert!(t.take_due(t0 + Duration::from_secs(4)).is_none());
    let all = t.take_due(t0 + HOLD).expect("due");
    assert_eq!(all.iter().map(|(u, _)| u.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(t.due(), None, "handed over");
}

#[test]
fn a_full_hold_is_due_at_once() {
    let t0 = Instant::now();
    let mut t = Trickle::default();
    let many = (0..HOLD_MAX).map(|i| (i.to_string(), preview("x"))).collect();
    t.hold(many, t0);
    assert_eq!(t.take_due(t0).map(|v| v.len()), Some(HOLD_MAX));
}

#[test]
fn the_cursor_goes_back_to_the_top_when_the_index_changes() {
    let mut t = Trickle::default();
    t.moved_to(Some(("c".into(), None)));
    assert_eq!(t.cursor().map(|w| w.0.as_str()), Some("c"));
    t.rewind();
    assert_eq!(t.cursor(), None);
}
