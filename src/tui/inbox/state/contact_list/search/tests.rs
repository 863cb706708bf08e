use super::*;

fn job(query: &str, hay: &[&str], within: Option<Vec<u32>>) -> SearchJob {
    SearchJob {
        generation: 1,
        query: query.into(),
        hay: Arc::new(hay.iter().map(|h| Box::from(*h)).collect()),
        within,
        layout: 0,
        version: 0,
        latest: Arc::new(AtomicU64::new(1)),
        funnels: None,
    }
}

#[test]
fn finds_fuzzy_matches_best_first() {
    let done = job("ana", &["Bob +55", "Ana Silva +55 vip", "Banana +1"], None)
        .run()
        .unwrap();
    assert_eq!(done.matches, vec![1, 2]);
}

#[test]
fn narrowing_searches_only_the_given_rows() {
    let done = job("ana", &["Ana", "Ana", "Ana"], Some(vec![2, 0])).run().unwrap();
    assert_eq!(done.matches, vec![0, 2], "ties in list order");
}

#[test]
fn a_run_superseded_by_a_newer_query_reports_nothing() {
    let j = job("a", &["a"; 10], None);
    j.latest.store(2, Ordering::Relaxed);
    assert!(j.run().is_none());
}

#[test]
fn only_a_plain_extension_of_the_same_store_narrows() {
    let s = Search {
        query: "an".into(),
        matched: "an".into(),
        matches: vec![3, 1],
        ..Default::default()
    };
    assert_eq!(s.narrowable("ana", 0, 0), Some(vec![3, 1]));
    assert_eq!(s.narrowable("an !x", 0, 0), None, "operators may widen");
    assert_eq!(s.narrowable("a", 0, 0), None, "shorter widens");
    assert_eq!(s.narrowable("ana", 0, 1), None, "the store changed");
}

#[test]
fn a_long_list_matched_in_parallel_gives_what_one_thread_gives() {
    let names: Vec<String> = (0..50_000)
        .map(|i| match i % 7 {
            0 => format!("Ana Souza {i}"),
            3 => format!("Banana Split {i}"),
            _ => format!("Contact {i}"),
        })
        .collect();
    let hay: Vec<&str> = names.iter().map(String::as_str).collect();
    let j = job("ana", &hay, None);
    let pattern = Pattern::new("ana", CaseMatching::Smart, Normalization::Smart, AtomKind::Fuzzy);
    let rows: Vec<u32> = (0..hay.len() as u32).collect();
    let mut one = j.score(&pattern, &rows).unwrap();
    one.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let want: Vec<u32> = one.into_iter().map(|(_, i)| i).collect();
    let done = j.run().unwrap();
    assert_eq!(done.matches.len(), 50_000 / 7 * 2 + 2);
    assert_eq!(done.matches, want);
}

#[test]
fn the_count_says_when_it_is_capped_and_not_when_every_match_is_shown() {
    let mut s = Search {
        matches: (0..200).collect(),
        ..Default::default()
    };
    assert_eq!(s.found(), "200");
    s.capped = true;
    assert_eq!(s.found(), "200+", "the index said no total");
    s.total = Some(1234);
    assert_eq!(s.found(), "200 of 1,234");
    // The loaded rows hold every match the index counted (and more).
    s.matches = (0..594).collect();
    s.total = Some(594);
    assert_eq!(s.found(), "594");
}

#[test]
fn a_long_count_reads_with_separators() {
    let s = Search {
        matches: (0..2244).collect(),
        ..Default::default()
    };
    assert_eq!(s.found(), "2,244");
}

fn funnels() -> std::collections::BTreeMap<String, (String, String)> {
    [
        ("f-1".to_string(), ("🤝".to_string(), "Negotiation".to_string())),
        ("f-2".to_string(), (String::new(), "New leads".to_string())),
    ]
    .into_iter()
    .collect()
}

#[test]
fn funnel_names_a_funnel_by_the_start_of_its_name_in_any_case() {
    let known = funnels();
    let uuids = |q: &str| funnel_filter(q, &known).map(|f| f.to_vec());
    assert_eq!(uuids("ana"), None, "no funnel: no filter");
    assert_eq!(uuids("funnel:NEG ana"), Some(vec!["f-1".to_string()]));
    assert_eq!(uuids("ana Funnel:ne"), Some(vec!["f-1".to_string(), "f-2".to_string()]));
    assert_eq!(
        uuids("funnel:f-2"),
        Some(vec!["f-2".to_string()]),
        "an unknown name's uuid"
    );
    assert_eq!(uuids("funnel:won"), Some(vec![]), "no such funnel: nothing matches");
    assert_eq!(words_of("funnel:neg  ana x"), "ana x");
    assert_eq!(words_of("ana  x"), "ana  x", "a query without it is kept as typed");
}

#[test]
fn funnel_keeps_only_the_funnels_rows_and_matches_the_other_words() {
    let hay = [
        "Ana Silva +55\u{1f}f-1",
        "Banana +1\u{1f}f-2",
        "Ana Souza +44",
        "Bob +1\u{1f}f-1",
    ];
    let mut j = job("funnel:neg ana", &hay, None);
    j.funnels = funnel_filter(&j.query, &funnels());
    assert_eq!(j.run().unwrap().matches, vec![0]);
    // Alone, it lists the funnel's conversations in list order.
    let mut j = job("funnel:neg", &hay, None);
    j.funnels = funnel_filter(&j.query, &funnels());
    assert_eq!(j.run().unwrap().matches, vec![0, 3]);
}

#[test]
fn the_typed_words_never_match_a_funnels_uuid() {
    let j = job("f1", &["Ana +55\u{1f}f1"], None);
    assert!(j.run().unwrap().matches.is_empty());
}
