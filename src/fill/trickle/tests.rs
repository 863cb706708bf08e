use super::*;

fn preview(text: &str) -> Preview {
    Preview {
        who: None,
        text: text.into(),
        at: None,
        activity: None,
        wait: Default::default(),
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

fn index_of(open: usize) -> SharedIndex {
    let ix = crate::index::Index::in_memory().unwrap();
    let mut shared = SharedIndex::new(ix);
    let contacts: Vec<crate::api::Contact> = crate::tui::fixtures::contacts(0..open);
    shared.with(|ix| ix.upsert_contacts(&contacts, Utc::now())).unwrap();
    shared
}

#[test]
fn batches_walk_every_stale_conversation_once_stepping_over_the_tried() {
    let mut index = index_of(30);
    let all = index.with(|ix| ix.stale_previews(100)).unwrap();
    assert!(all.len() >= 20, "open conversations: {}", all.len());
    // Ten tried this session (a 404): stepped over, even a whole page of them.
    let tried: HashMap<String, Option<DateTime<Utc>>> = all[5..15].iter().cloned().collect();
    let mut t = Trickle::default();
    let mut walked = Vec::new();
    loop {
        let batch = t.next_batch(&mut index, &tried, 4);
        if batch.is_empty() {
            break;
        }
        // Fetched: fresh now.
        for (uuid, activity) in &batch {
            index.with(|ix| ix.store_messages(uuid, *activity, &[])).unwrap();
        }
        walked.extend(batch.into_iter().map(|w| w.0));
        assert!(walked.len() <= all.len() - 10, "nothing twice: {walked:?}");
    }
    let want: Vec<String> = all
        .iter()
        .filter(|w| !tried.contains_key(&w.0))
        .map(|w| w.0.clone())
        .collect();
    assert_eq!(walked, want);
    assert_eq!(t.cursor(), None, "past the end, back at the top");
}

#[test]
fn the_cursor_goes_back_to_the_top_when_the_index_changes() {
    let mut index = index_of(10);
    let mut t = Trickle::default();
    let first = t.next_batch(&mut index, &HashMap::new(), 4);
    assert_eq!(t.cursor(), first.last());
    t.rewind();
    assert_eq!(t.cursor(), None);
    assert_eq!(
        t.next_batch(&mut index, &HashMap::new(), 4),
        first,
        "from the newest again"
    );
}

#[test]
fn the_trickle_keeps_its_pace_after_a_fast_start_unless_the_sync_rate_is_unlimited() {
    let t0 = Instant::now();
    let mut t = Trickle::default();
    t.pace(FAST_START, t0, false);
    assert_eq!(t.paced_until(t0), None, "the first ones at the budget's pace");
    t.pace(8, t0, false);
    assert_eq!(t.paced_until(t0), Some(t0 + Duration::from_secs_f64(8.0 / RATE)));
    assert_eq!(
        t.paced_until(t0 + Duration::from_secs(60)),
        None,
        "a pace in the past wakes nothing"
    );
    t.pace(8, t0, true);
    assert_eq!(t.paced_until(t0), None);
}
