use super::*;

#[test]
fn sanitize_makes_escape_sequences_and_controls_inert() {
    assert_eq!(sanitize("a\x1b[31mred\x1b[0m"), "a␛[31mred␛[0m");
    assert_eq!(sanitize("t\x1b]0;title\x07x"), "t␛]0;title␇x");
    assert_eq!(sanitize("a\u{7}b\u{7f}c\u{9b}d"), "a␇b␡c<U+009B>d");
    assert_eq!(sanitize("line1\nline2\tx\r"), "line1⏎ line2    x");
    assert_eq!(
        sanitize("abc\u{202e}fed\u{2066}x\u{2069}"),
        "abc<U+202E>fed<U+2066>x<U+2069>"
    );
    assert_eq!(sanitize("émoji 😀 中文"), "émoji 😀 中文");
    assert_eq!(sanitize("trailing esc\x1b"), "trailing esc␛");
    assert_eq!(sanitize_multiline("a\r\nb\x1b[2Jc"), "a\nb␛[2Jc");
    assert!(!sanitize("\x1b[2J\x1b]52;c;aGk=\x07").chars().any(|c| c.is_control()));
}

#[derive(Serialize)]
struct Row {
    n: u32,
}

impl Tabular for Row {
    fn headers() -> &'static [&'static str] {
        &["N"]
    }
    fn row(&self) -> Vec<String> {
        vec![self.n.to_string()]
    }
}

fn written(format: Format, pages: Vec<Vec<u32>>) -> (String, Vec<usize>) {
    let mut out = Vec::new();
    let mut after_each = Vec::new();
    let mut w = ListWriter::new(format, false);
    for p in pages {
        w.push_page(&mut out, p.into_iter().map(|n| Row { n }).collect())
            .unwrap();
        after_each.push(out.len());
    }
    w.finish(&mut out).unwrap();
    (String::from_utf8(out).unwrap(), after_each)
}

#[test]
fn list_writer_streams_only_json_lines() {
    let (s, after) = written(Format::Jsonl, vec![vec![1, 2], vec![3]]);
    assert_eq!(s, "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
    assert!(after[0] > 0, "the first page is written before the second arrives");
    let (s, after) = written(Format::Json, vec![vec![1, 2], vec![3]]);
    assert_eq!(after, vec![0, 0], "a JSON array is written only once complete");
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v, serde_json::json!([{"n": 1}, {"n": 2}, {"n": 3}]));
    assert_eq!(
        s,
        list_doc(Format::Json, false, &[Row { n: 1 }, Row { n: 2 }, Row { n: 3 }]).unwrap()
    );
    assert_eq!(written(Format::Json, vec![vec![]]).0, "[]\n");
    let (s, _) = written(Format::Table, vec![vec![1], vec![22]]);
    assert_eq!(s, "N\n1\n22\n");
}

#[test]
fn json_escapes_c1_controls_and_bidi_overrides_and_keeps_the_data() {
    let text = "a\u{9b}31mb\u{202e}c\u{2066}d\u{85}é😀";
    let line = json_line(&serde_json::json!({ "t": text })).unwrap();
    assert_eq!(line, r#"{"t":"a\u009b31mb\u202ec\u2066d\u0085é😀"}"#);
    let back: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(back["t"], text);
    let pretty = json_pretty(&vec![text]).unwrap();
    assert!(!pretty.contains('\u{9b}') && pretty.contains("\\u009b"), "{pretty}");
    let (s, _) = written(Format::Jsonl, vec![vec![1]]);
    assert_eq!(s, "{\"n\":1}\n");
}

#[test]
fn truncate_counts_characters() {
    assert_eq!(truncate("héllo", 5), "héllo");
    assert_eq!(truncate("héllo world", 5), "héll…");
}

#[test]
fn record_aligns_keys_and_indents_continuation_lines() {
    let s = render_record(
        &[
            ("uuid".into(), "abc".into()),
            ("note".into(), "one\ntwo".into()),
            ("long key".into(), "v".into()),
        ],
        false,
    );
    assert_eq!(s, "uuid      abc\nnote      one\n          two\nlong key  v\n");
    let colored = render_record(&[("k".into(), "v".into())], true);
    assert!(colored.contains("\x1b[1mk\x1b[0m"));
}

#[test]
fn record_values_line_up_after_wide_and_escaped_keys() {
    // Custom field names come from the server: measured in columns, as shown.
    let s = render_record(
        &[
            ("城市".into(), "a".into()),
            ("plan".into(), "b".into()),
            ("x\u{1b}[1m".into(), "c".into()),
        ],
        false,
    );
    let at: Vec<usize> = s
        .lines()
        .map(|l| {
            let key = l.trim_end_matches(|c| c != ' ').trim_end();
            crate::text::width(key) + (l.len() - key.len() - 1)
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] == w[1]), "values start at {at:?}:\n{s}");
}
