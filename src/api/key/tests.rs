use super::*;

#[test]
fn a_short_key_is_redacted_only_where_it_stands_whole() {
    assert_eq!(redact("unknown tag k", "k"), "unknown tag <redacted>");
    assert_eq!(redact("Bearer k", "k"), "Bearer <redacted>");
    assert_eq!(redact("http://h/v1?key=k&x=1", "k"), "http://h/v1?key=<redacted>&x=1");
    assert_eq!(redact("kkk knock", "k"), "kkk knock");
    assert_eq!(redact("/v1?q=%3Dk%20", "k"), "/v1?q=%3D<redacted>%20");
}

#[test]
fn a_long_key_is_redacted_everywhere_it_stands_whole() {
    let key = "fd_live_9f8e7d6c5b4a";
    let text = format!("Authorization: Bearer {key}\nurl /v1/{key}/x \"{key}\" {key}");
    let out = redact(&text, key);
    assert!(!out.contains(key), "{out}");
    assert_eq!(out.matches("<redacted>").count(), 4, "{out}");
    // Glued to other token characters it is another word, not the key.
    assert_eq!(redact(&format!("x{key}"), key), format!("x{key}"));
    assert_eq!(redact("", key), "");
}

#[test]
fn debug_and_display_hide_the_key() {
    let k = ApiKey::new("secret-123");
    assert!(!format!("{k:?} {k}").contains("secret-123"));
}
