use super::*;

fn page(s: &str) -> Result<Page, String> {
    let q: Result<PageQuery, _> = serde_urlencoded_like(&format!("page={s}"));
    q.map(|q| q.page)
}

fn serde_urlencoded_like(q: &str) -> Result<PageQuery, String> {
    let uri: axum::http::Uri = format!("http://x/?{q}").parse().map_err(|e| format!("{e}"))?;
    Query::<PageQuery>::try_from_uri(&uri)
        .map(|Query(v)| v)
        .map_err(|e| e.body_text())
}

#[test]
fn page_numbers() {
    assert_eq!(page("3"), Ok(Page(3)));
    assert_eq!(page(""), Ok(Page(1)));
    assert_eq!(page("99999999999999999999999999"), Ok(Page(u64::MAX)));
    for bad in ["0", "-1", "abc", "1.5", "%2B1"] {
        let e = page(bad).unwrap_err();
        assert!(e.contains("page") && e.contains("positive integer"), "{bad}: {e}");
    }
}

#[test]
fn offsets_never_overflow() {
    assert_eq!(offset(Page(1), 20), Some(0));
    assert_eq!(offset(Page(3), 20), Some(40));
    assert_eq!(offset(Page(922_337_203_685_477_581), 20), None);
    assert_eq!(offset(Page(u64::MAX), 20), None);
    let items: Vec<Value> = (0..45).map(|i| json!(i)).collect();
    let (p, meta) = paginate(items.clone(), Page(u64::MAX), 20);
    assert!(p.is_empty());
    assert_eq!(meta, json!({ "page": u64::MAX, "pages": 3 }));
    assert_eq!(paginate(items, Page(3), 20).0.len(), 5);
}
