use super::*;
use reqwest::header::HeaderValue;

#[test]
fn delay_backs_off_with_jitter_and_honours_retry_after() {
    let p = RetryPolicy {
        max_attempts: 5,
        base_delay: Duration::from_millis(100),
        max_delay: Duration::from_millis(1000),
    };
    for _ in 0..50 {
        let d1 = p.delay(1, None);
        assert!(
            d1 >= Duration::from_millis(50) && d1 <= Duration::from_millis(100),
            "{d1:?}"
        );
        let d3 = p.delay(3, None);
        assert!(
            d3 >= Duration::from_millis(200) && d3 <= Duration::from_millis(400),
            "{d3:?}"
        );
        let d9 = p.delay(9, None);
        assert!(
            d9 >= Duration::from_millis(500) && d9 <= Duration::from_millis(1000),
            "{d9:?}"
        );
    }
    assert_eq!(p.delay(1, Some(Duration::from_millis(700))), Duration::from_millis(700));
    assert_eq!(p.delay(1, Some(Duration::from_secs(30))), Duration::from_millis(1000));
    assert!(p.delay(40, None) <= Duration::from_millis(1000));
}

#[test]
fn retry_after_parses_seconds_and_dates() {
    let mut h = HeaderMap::new();
    assert_eq!(retry_after(&h), None);
    h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
    assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
    h.insert(RETRY_AFTER, HeaderValue::from_static("0.5"));
    assert_eq!(retry_after(&h), Some(Duration::from_millis(500)));
    h.insert(RETRY_AFTER, HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"));
    assert_eq!(retry_after(&h), Some(Duration::ZERO));
    h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
    assert_eq!(retry_after(&h), None);
}
