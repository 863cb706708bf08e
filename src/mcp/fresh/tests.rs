use super::*;

fn seen(f: impl FnOnce(&mut SyncStatus)) -> Seen {
    let mut s = Seen::default();
    f(&mut s.status);
    s
}

#[test]
fn a_walk_under_way_is_incomplete_and_says_how_far() {
    let s = seen(|st| st.walking = Some((1200, Some(5000))));
    let m = meta(&s, Vec::new());
    assert_eq!(m["complete"], json!(false));
    assert!(m["asOf"].is_null());
    let said = m["missing"][0].as_str().unwrap();
    assert!(said.contains("1200 of about 5000"), "{said}");
}

#[test]
fn a_finished_walk_with_nothing_missing_is_complete() {
    let at = Utc::now();
    let s = seen(|st| {
        st.complete = true;
        st.synced_at = Some(at);
    });
    let m = meta(&s, Vec::new());
    assert_eq!(m["complete"], json!(true));
    assert_eq!(m["asOf"], json!(at.to_rfc3339()));
    let m = meta(&s, vec!["last messages: 3 conversations not read yet".into()]);
    assert_eq!(m["complete"], json!(false));
}

#[test]
fn an_empty_index_that_cannot_fill_is_a_tool_error_naming_the_fix() {
    let refused = Seen {
        problem: Some("syncing the local index failed: the server refused the API key (401): check the key".into()),
        ..Seen::default()
    };
    let why = cannot_answer(&refused, "http://x", true).unwrap();
    assert!(why.contains("401") && why.contains("restart"), "{why}");
    let offline = seen(|st| st.offline = true);
    let why = cannot_answer(&offline, "http://x", true).unwrap();
    assert!(why.contains("cannot be reached") && why.contains("http://x"), "{why}");
    // With contacts in it, the index answers (marked partial).
    assert!(cannot_answer(&offline, "http://x", false).is_none());
    // Still walking, nothing wrong: a partial answer, not an error.
    assert!(cannot_answer(&seen(|st| st.walking = Some((0, None))), "http://x", true).is_none());
}
