use super::*;

#[test]
fn ids_read_as_strings_and_serialize_bare() {
    let m = MessageId::from("m1");
    assert_eq!(&*m, "m1");
    assert_eq!(m.to_string(), "m1");
    assert_eq!(serde_json::to_string(&m).unwrap(), "\"m1\"");
    let back: MessageId = serde_json::from_str("\"m1\"").unwrap();
    assert_eq!(back, m);
    assert!(ContactId::new("c1").starts_with('c'));
}
