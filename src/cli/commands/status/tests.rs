use super::*;

fn args(available: bool, away: bool, cs: Option<&str>, clear: bool) -> SetArgs {
    SetArgs {
        available,
        away,
        custom_status: cs.map(Into::into),
        clear_custom_status: clear,
    }
}

#[test]
fn flags_map_to_the_three_custom_status_requests() {
    let j = |a: SetArgs| serde_json::to_value(update_from_args(&a).unwrap()).unwrap();
    assert_eq!(
        j(args(true, false, None, false)),
        serde_json::json!({"available": true})
    );
    assert_eq!(
        j(args(false, true, None, true)),
        serde_json::json!({"available": false, "custom_status_uuid": null})
    );
    assert_eq!(
        j(args(false, false, Some("x"), false)),
        serde_json::json!({"custom_status_uuid": "x"})
    );
    assert!(update_from_args(&args(false, false, None, false)).is_none());
}
