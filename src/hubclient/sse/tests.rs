use super::*;

fn all(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut p = SseParser::new();
    chunks.iter().flat_map(|c| p.feed(c).unwrap()).collect()
}

fn ev(id: Option<&str>, event: &str, data: &str) -> SseEvent {
    SseEvent {
        id: id.map(str::to_string),
        event: event.into(),
        data: data.into(),
    }
}

#[test]
fn events_with_ids_kinds_and_comments() {
    let got = all(&[b": keep-alive\n\nid: 1\nevent: contact_deleted\ndata: {\"uuid\":\"a\"}\n\n"]);
    assert_eq!(got, [ev(Some("1"), "contact_deleted", "{\"uuid\":\"a\"}")]);
}

#[test]
fn lines_split_anywhere_and_every_line_ending() {
    let text = b"id: 7\r\nevent: presence\rdata: one\ndata:two\r\n\r\nid: 8\ndata: x\n\n";
    let whole = all(&[text]);
    assert_eq!(
        whole,
        [ev(Some("7"), "presence", "one\ntwo"), ev(Some("8"), "message", "x")]
    );
    // Byte by byte (a CR and its LF in different chunks) gives the same.
    let bytes: Vec<&[u8]> = text.chunks(1).collect();
    assert_eq!(all(&bytes), whole);
}

#[test]
fn the_id_carries_over_and_an_event_without_data_is_not_dispatched() {
    let got = all(&[b"id: 3\nevent: x\n\ndata: a\n\n"]);
    assert_eq!(got, [ev(Some("3"), "message", "a")]);
}

#[test]
fn a_leading_bom_is_ignored_and_a_field_without_colon_counts() {
    let got = all(&["\u{feff}data\n\n".as_bytes()]);
    assert_eq!(got, [ev(None, "message", "")]);
}

#[test]
fn a_huge_line_is_refused() {
    let mut p = SseParser::new();
    let big = vec![b'a'; MAX_LINE_BYTES + 1];
    assert_eq!(p.feed(&big), Err(LineTooLong));
}
