use super::*;

fn args(v: Value) -> Args {
    v.as_object().unwrap().clone()
}

#[test]
fn a_limit_above_the_maximum_gives_the_maximum_and_says_so() {
    assert_eq!(limit(&args(json!({})), 20, 100).unwrap(), (20, None));
    let (n, note) = limit(&args(json!({ "limit": 500 })), 20, 100).unwrap();
    assert_eq!(n, 100);
    assert!(note.unwrap().contains("100 given"));
    assert!(
        limit(&args(json!({ "limit": "lots" })), 20, 100)
            .unwrap_err()
            .contains("limit")
    );
    assert!(limit(&args(json!({ "limit": 0 })), 20, 100).is_err());
}

#[test]
fn unknown_arguments_are_refused_by_name() {
    let e = only(&args(json!({ "contact": "a", "colour": 1 })), &["contact"]).unwrap_err();
    assert!(e.contains("`colour`") && e.contains("contact"), "{e}");
    assert!(only(&args(json!({ "contact": "a" })), &["contact"]).is_ok());
}

#[test]
fn a_search_is_capped_in_bytes_and_words() {
    let long = "a".repeat(MAX_QUERY_BYTES + 1);
    assert!(
        query(&args(json!({ "query": long })), "query")
            .unwrap_err()
            .contains("bytes")
    );
    let many = vec!["w"; MAX_QUERY_WORDS + 1].join(" ");
    assert!(
        query(&args(json!({ "query": many })), "query")
            .unwrap_err()
            .contains("words")
    );
    assert_eq!(query(&args(json!({ "query": " refund " })), "query").unwrap(), "refund");
    assert!(query(&args(json!({ "query": 5 })), "query").is_err());
}

#[test]
fn a_cursor_works_only_for_its_own_listing() {
    let c = next_cursor("search", "refund", 40);
    assert_eq!(cursor(&args(json!({ "cursor": c })), "search", "refund").unwrap(), 40);
    assert!(cursor(&args(json!({ "cursor": c })), "search", "parcel").is_err());
    assert!(cursor(&args(json!({ "cursor": c })), "list_contacts", "refund").is_err());
    assert!(cursor(&args(json!({ "cursor": "garbage!" })), "search", "refund").is_err());
    assert_eq!(cursor(&args(json!({})), "search", "refund").unwrap(), 0);
}
