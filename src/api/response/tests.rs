use super::*;

#[test]
fn error_bodies() {
    let b = ErrorBody::parse(br#"{"error":"contact not found","code":"not_found"}"#);
    assert_eq!(b.message.as_deref(), Some("contact not found"));
    assert!(b.fields.is_empty());
    assert!(b.api_shaped);
    let b = ErrorBody::parse(br#"{"error":{"note":["is too long"],"tags":"unknown tag vip"}}"#);
    assert_eq!(b.fields["note"], vec!["is too long".to_string()]);
    assert_eq!(b.fields["tags"], vec!["unknown tag vip".to_string()]);
    assert_eq!(b.message.as_deref(), Some("note: is too long, tags: unknown tag vip"));
    assert_eq!(ErrorBody::parse(b"<html>oops</html>"), ErrorBody::default());
    assert_eq!(ErrorBody::parse(b""), ErrorBody::default());
    let b = ErrorBody::parse(br#"{"message":"Not Found"}"#);
    assert_eq!(b.message.as_deref(), Some("Not Found"));
    assert!(!b.api_shaped);
}

#[test]
fn excerpts_are_short_and_inert() {
    let body = format!("\x1b[31mred\nline{}", "x".repeat(300));
    let e = excerpt(body.as_bytes());
    assert!(!e.chars().any(char::is_control), "{e:?}");
    assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
    assert!(e.ends_with('…'));
    assert_eq!(excerpt(b"  "), "(an empty body)");
}

#[test]
fn empty_contact_list_is_a_decode_error() {
    let a = Answer::from_json("GET /contacts/x", r#"{"contact":[]}"#).unwrap();
    let e = a.one::<serde_json::Value>(&["contact"]).unwrap_err();
    assert!(
        matches!(e, ApiError::Decode { ref reason, .. } if reason.contains("empty list")),
        "{e:?}"
    );
}

#[test]
fn non_json_is_a_decode_error_naming_the_endpoint() {
    let e = Answer::from_json("GET /plan", "<html>bad gateway</html>").unwrap_err();
    let ApiError::Decode { endpoint, excerpt, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(endpoint, "GET /plan");
    assert_eq!(excerpt, "<html>bad gateway</html>");
    assert!(e.to_string().contains("GET /plan"));
}
