use super::*;
use crate::api::FieldType;

fn meta() -> BTreeMap<String, FieldMeta> {
    let m = |t: FieldType, o: &[&str]| FieldMeta {
        value: FieldValue::default(),
        field_type: t,
        options: o.iter().map(|s| s.to_string()).collect(),
    };
    BTreeMap::from([
        ("birthday".to_string(), m(FieldType::Date, &[])),
        ("plan".to_string(), m(FieldType::Dropdown, &["free", "pro"])),
        ("interests".to_string(), m(FieldType::Checkbox, &["a", "b", "c"])),
        ("Score".to_string(), m(FieldType::Number, &[])),
    ])
}

fn f(name: &str, v: &str) -> (String, String) {
    (name.to_string(), v.to_string())
}

#[test]
fn field_args_split_on_the_first_equals_sign() {
    assert_eq!(parse_field_arg("a=b=c"), Ok(("a".into(), "b=c".into())));
    assert_eq!(parse_field_arg("a="), Ok(("a".into(), "".into())));
    assert!(parse_field_arg("novalue").is_err());
    assert!(parse_field_arg("=x").is_err());
}

#[test]
fn custom_fields_are_checked_and_encoded() {
    let body = custom_fields_body(
        &[
            f("birthday", "1990-02-03"),
            f("plan", "pro"),
            f("interests", "a, c"),
            f("score", "4.5"),
        ],
        &meta(),
    )
    .unwrap();
    assert_eq!(body["birthday"], serde_json::json!("1990-02-03"));
    assert_eq!(body["plan"], serde_json::json!("pro"));
    assert_eq!(body["interests"], serde_json::json!(["a", "c"]));
    // Case forgiven, the account's spelling sent.
    assert_eq!(body["Score"], serde_json::json!("4.5"));
}

#[test]
fn unknown_field_names_it_and_lists_known_ones() {
    let e = custom_fields_body(&[f("colour", "red")], &meta()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    let m = e.message().unwrap();
    assert!(m.contains("\"colour\""), "{m}");
    assert!(m.contains("birthday, interests, plan"), "{m}");
}

#[test]
fn bad_values_name_the_field_and_problem() {
    let e = custom_fields_body(&[f("birthday", "1990-13-40")], &meta()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    let m = e.message().unwrap();
    assert!(m.contains("birthday") && m.contains("YYYY-MM-DD"), "{m}");
    let m = custom_fields_body(&[f("interests", "a,z")], &meta())
        .unwrap_err()
        .message()
        .unwrap();
    assert!(m.contains("interests") && m.contains("\"z\""), "{m}");
    let m = custom_fields_body(&[f("plan", "gold")], &meta())
        .unwrap_err()
        .message()
        .unwrap();
    assert!(m.contains("plan") && m.contains("free, pro"), "{m}");
}

#[test]
fn the_lookup_command_quotes_the_identifier() {
    assert_eq!(
        find_by_identifier("+15550001"),
        r#"frontdesk contacts list --all --jsonl | grep -F '"phoneNumber":"+15550001"'"#
    );
    assert_eq!(
        find_by_identifier("o'neil"),
        r#"frontdesk contacts list --all --jsonl | grep -F '"phoneNumber":"o'\''neil"'"#
    );
}

#[test]
fn notes_are_counted_in_characters() {
    assert!(check_note(&"é".repeat(1000)).is_ok());
    let e = check_note(&"x".repeat(1001)).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.message().unwrap().contains("1001"));
}
