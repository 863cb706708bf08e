use super::*;

fn known(name: &str) -> bool {
    name == "search"
}

fn answer(line: &[u8]) -> Value {
    match check(line, &known) {
        Verdict::Answer(v) => v,
        other => panic!("{other:?} for {}", String::from_utf8_lossy(line)),
    }
}

fn code_and_id(v: &Value) -> (i64, Value) {
    assert_eq!(v["jsonrpc"], "2.0", "{v}");
    assert!(
        v.as_object().unwrap().contains_key("id"),
        "an error reply carries id: {v}"
    );
    (v["error"]["code"].as_i64().unwrap(), v["id"].clone())
}

#[test]
fn unparseable_input_is_a_parse_error_with_a_null_id() {
    for line in [
        &b"not json"[..],
        b"{\"jsonrpc\":\"2.0\",",
        b"\xff\xfe",
        b"{\"id\":1,\"method\":\"x\xff\"}",
    ] {
        assert_eq!(code_and_id(&answer(line)), (PARSE_ERROR, Value::Null));
    }
}

#[test]
fn what_is_not_a_request_is_an_invalid_request() {
    assert_eq!(code_and_id(&answer(b"[]")), (INVALID_REQUEST, Value::Null));
    assert_eq!(
        code_and_id(&answer(b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")),
        (INVALID_REQUEST, Value::Null)
    );
    assert_eq!(code_and_id(&answer(b"5")), (INVALID_REQUEST, Value::Null));
    assert_eq!(
        code_and_id(&answer(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#)),
        (INVALID_REQUEST, Value::Null)
    );
    assert_eq!(
        code_and_id(&answer(br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)),
        (INVALID_REQUEST, Value::Null)
    );
    // The id is known: the reply names it.
    assert_eq!(
        code_and_id(&answer(br#"{"jsonrpc":"2.0","id":7}"#)),
        (INVALID_REQUEST, json!(7))
    );
    assert_eq!(
        code_and_id(&answer(br#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#)),
        (INVALID_REQUEST, json!("a"))
    );
    assert_eq!(
        code_and_id(&answer(br#"{"jsonrpc":"2.0","id":3,"method":5}"#)),
        (INVALID_REQUEST, json!(3))
    );
}

#[test]
fn bad_tool_call_params_are_invalid_params() {
    for line in [
        &br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}"#[..],
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call"}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"search","arguments":[1]}}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"search"}"#,
    ] {
        assert_eq!(code_and_id(&answer(line)), (INVALID_PARAMS, json!(8)));
    }
    let v = answer(br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope"}}"#);
    assert!(v["error"]["message"].as_str().unwrap().contains("Unknown tool"), "{v}");
}

#[test]
fn good_messages_go_through_and_blank_lines_are_skipped() {
    for line in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"a"}}}"#[..],
        br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        br#"{"jsonrpc":"2.0","id":4,"result":{}}"#,
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        assert_eq!(check(line, &known), Verdict::Pass, "{}", String::from_utf8_lossy(line));
    }
    assert_eq!(check(b"  ", &known), Verdict::Skip);
    // A notification never gets a reply, even to bad params.
    assert_eq!(
        check(br#"{"jsonrpc":"2.0","method":"notifications/x","params":3}"#, &known),
        Verdict::Skip
    );
}

#[test]
fn an_error_reply_without_an_id_gets_a_null_one() {
    let fixed: Value = serde_json::from_str(&with_id(
        r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#.into(),
    ))
    .unwrap();
    assert_eq!(fixed["id"], Value::Null);
    assert!(fixed.as_object().unwrap().contains_key("id"));
    let kept = r#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
    assert_eq!(with_id(kept.into()), kept);
}

#[tokio::test]
async fn a_line_over_the_limit_is_skipped_and_the_next_read() {
    let mut data = vec![b'a'; MAX_LINE + 10];
    data.extend_from_slice(b"\nnext\n");
    let mut r = tokio::io::BufReader::new(&data[..]);
    let mut buf = Vec::new();
    assert_eq!(read_line(&mut r, &mut buf).await.unwrap(), Some(false));
    assert_eq!(read_line(&mut r, &mut buf).await.unwrap(), Some(true));
    assert_eq!(buf, b"next");
    assert_eq!(read_line(&mut r, &mut buf).await.unwrap(), None);
}
