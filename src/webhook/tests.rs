use super::*;

const SECRET: &[u8] = b"whsec_test";

#[test]
fn a_signed_body_verifies_within_the_window() {
    let body = br#"{"event":"contact_updated","payload":{}}"#;
    let header = sign(SECRET, 1_000_000, body);
    assert!(header.starts_with("t=1000000,v1="));
    assert_eq!(verify(Some(&header), body, SECRET, 1_000_000 + 299), Ok(()));
    assert_eq!(verify(Some(&header), body, SECRET, 1_000_000 - 299), Ok(()));
}

#[test]
fn a_changed_body_or_secret_is_refused() {
    let header = sign(SECRET, 10, b"{}");
    assert_eq!(verify(Some(&header), b"{ }", SECRET, 10), Err(SignatureError::Mismatch));
    assert_eq!(
        verify(Some(&header), b"{}", b"other", 10),
        Err(SignatureError::Mismatch)
    );
}

#[test]
fn an_old_or_future_signature_is_refused() {
    let header = sign(SECRET, 10_000, b"{}");
    assert_eq!(
        verify(Some(&header), b"{}", SECRET, 10_000 + 301),
        Err(SignatureError::OutsideWindow)
    );
    assert_eq!(
        verify(Some(&header), b"{}", SECRET, 10_000 - 301),
        Err(SignatureError::OutsideWindow)
    );
}

#[test]
fn missing_or_malformed_headers_are_refused() {
    assert_eq!(verify(None, b"{}", SECRET, 0), Err(SignatureError::Missing));
    for bad in ["", "t=1", "v1=00", "t=x,v1=00", "t=1,v1=zz", "t=1,v1=0", "garbage"] {
        assert_eq!(
            verify(Some(bad), b"{}", SECRET, 1),
            Err(SignatureError::Malformed),
            "{bad:?}"
        );
    }
}

#[test]
fn a_second_tag_for_a_rotated_secret_is_accepted() {
    let good = sign(SECRET, 5, b"{}");
    let tag = good.split_once("v1=").map(|(_, t)| t).unwrap_or_default();
    let header = format!("t=5,v1={},v1={tag}", "00".repeat(32));
    assert_eq!(verify(Some(&header), b"{}", SECRET, 5), Ok(()));
}
