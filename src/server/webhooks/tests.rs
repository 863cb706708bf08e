use super::loopback::check_loopback;

#[test]
fn loopback_only() {
    assert!(check_loopback("http://127.0.0.1:9000/hook").is_ok());
    assert!(check_loopback("http://localhost:9000/hook").is_ok());
    assert!(check_loopback("http://[::1]:9000/").is_ok());
    assert!(check_loopback("https://example.com/hook").is_err());
    assert!(check_loopback("http://10.0.0.1/hook").is_err());
    assert!(check_loopback("not a url").is_err());
}
