use super::*;

#[test]
fn every_tool_has_a_title_all_four_hints_and_both_schemas() {
    for t in all(true) {
        let name = t.name.to_string();
        assert!(t.title.as_deref().is_some_and(|s| !s.is_empty()), "{name}");
        let a = t.annotations.as_ref().unwrap();
        assert!(a.title.is_some(), "{name}");
        for (hint, v) in [
            ("readOnly", a.read_only_hint),
            ("destructive", a.destructive_hint),
            ("idempotent", a.idempotent_hint),
            ("openWorld", a.open_world_hint),
        ] {
            assert!(v.is_some(), "{name}: {hint}Hint");
        }
        assert_eq!(
            t.input_schema.get("additionalProperties"),
            Some(&json!(false)),
            "{name}"
        );
        let out = t
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: outputSchema"));
        assert_eq!(out.get("type"), Some(&json!("object")), "{name}");
        // A write is never read-only; a read is never destructive.
        let writes = WRITES.contains(&name.as_str());
        if writes {
            assert_eq!(a.read_only_hint, Some(false), "{name}");
        }
        if a.read_only_hint == Some(true) {
            assert_eq!(a.destructive_hint, Some(false), "{name}");
        }
    }
}

#[test]
fn sending_is_destructive_and_open_world_and_drafting_is_not_read_only() {
    let tools = all(true);
    let find = |n: &str| tools.iter().find(|t| t.name == n).unwrap().annotations.clone().unwrap();
    let send = find("send_reply");
    assert_eq!(
        (send.destructive_hint, send.open_world_hint, send.idempotent_hint),
        (Some(true), Some(true), Some(false))
    );
    assert_eq!(find("draft_reply").read_only_hint, Some(false));
    assert_eq!(find("list_contacts").read_only_hint, Some(true));
}

#[test]
fn the_write_tools_are_offered_only_with_writes() {
    let names: Vec<String> = all(false).iter().map(|t| t.name.to_string()).collect();
    assert!(WRITES.iter().all(|w| !names.contains(&w.to_string())), "{names:?}");
    let names: Vec<String> = all(true).iter().map(|t| t.name.to_string()).collect();
    assert!(WRITES.iter().all(|w| names.contains(&w.to_string())), "{names:?}");
}
