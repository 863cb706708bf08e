use super::*;

#[test]
fn round_trip_and_garbage() {
    let c = Cursor {
        key: 1_700_000_000_123,
        id: 42,
        max_id: 99,
    };
    assert_eq!(Cursor::decode(&c.encode()), Some(c));
    for bad in [
        "",
        "abc",
        "!!!",
        &URL_SAFE_NO_PAD.encode("fd1:1:2"),
        &URL_SAFE_NO_PAD.encode("xx:1:2:3"),
    ] {
        assert_eq!(Cursor::decode(bad), None, "{bad}");
    }
}
