use super::*;

#[test]
fn base_url_rules() {
    let t = Duration::from_secs(5);
    for ok in [
        "https://api.example.com/v1",
        "https://api.example.com/v1/",
        "http://127.0.0.1:8080/v1",
        "http://127.1.2.3/v1",
        "http://localhost:3000/v1",
        "http://[::1]:3000/v1",
    ] {
        assert!(Client::new(ok, "k", t).is_ok(), "{ok} should be accepted");
    }
    for bad in [
        "http://api.example.com/v1",
        "http://10.0.0.1/v1",
        "http://localhost.example.com/v1",
        "ftp://localhost/v1",
        "not a url",
        "https://user:pw@api.example.com/v1",
    ] {
        assert!(
            matches!(Client::new(bad, "k", t), Err(ApiError::Config(_))),
            "{bad} should be refused"
        );
    }
    assert!(matches!(
        Client::new("https://api.example.com/v1", "  ", t),
        Err(ApiError::Config(_))
    ));
    assert!(matches!(
        Client::new("https://api.example.com/v1", "a\nb", t),
        Err(ApiError::Config(_))
    ));
}

#[test]
fn urls_append_encoded_segments() {
    let c = Client::new("https://api.example.com/v1/", "k", Duration::from_secs(5)).unwrap();
    let u = c.url(&["contacts".into(), "a/b?c#d%e".into(), "messages".into()]);
    assert_eq!(
        u.as_str(),
        "https://api.example.com/v1/contacts/a%2Fb%3Fc%23d%25e/messages"
    );
    let c = Client::new("https://api.example.com/v1", "k", Duration::from_secs(5)).unwrap();
    assert_eq!(c.url(&["plan".into()]).as_str(), "https://api.example.com/v1/plan");
}
