use super::*;

#[test]
fn time_formats() {
    let ms = 1_700_000_000_123;
    assert_eq!(iso(ms), "2023-11-14T22:13:20.123Z");
    assert_eq!(legacy(ms), "2023-11-14 22:13:20 +0000");
    assert_eq!(rfc3339_offset(ms), "2023-11-14T22:13:20.123000+00:00");
}

#[test]
fn cursor_query_uses_the_activity_index() {
    let (conn, _) = open(None).unwrap();
    conn.execute_batch(INDEXES).unwrap();
    let plan: Vec<String> = conn
        .prepare(
            "EXPLAIN QUERY PLAN SELECT id FROM contacts WHERE (last_activity, id) < (?1, ?2)
                 AND id <= ?3 ORDER BY last_activity DESC, id DESC LIMIT 21",
        )
        .unwrap()
        .query_map(params![1, 2, 3], |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let plan = plan.join("\n");
    assert!(plan.contains("idx_contacts_activity"), "{plan}");
    assert!(!plan.contains("TEMP B-TREE"), "{plan}");
}
