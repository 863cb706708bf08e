use super::*;

#[test]
fn page_limit_is_checked_before_sending() {
    let f = ContactFilter::default();
    assert!(list_call(&f, &PageRequest::Number(500)).is_ok());
    assert_eq!(
        list_call(&f, &PageRequest::Number(501)).unwrap_err(),
        ApiError::Pagination("Pagination limit exceeded".into())
    );
}
