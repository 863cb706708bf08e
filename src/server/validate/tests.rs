use super::*;
use serde_json::json;

fn def(kind: &str, options: &[&str]) -> FieldDef {
    FieldDef {
        name: "f".into(),
        kind: kind.into(),
        options: options.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn values_by_type() {
    assert_eq!(
        field_value(&def("number", &[]), &json!("12.5")),
        Ok(Some("12.5".into()))
    );
    assert!(field_value(&def("number", &[]), &json!("twelve")).is_err());
    assert!(field_value(&def("date", &[]), &json!("2024-02-30")).is_err());
    assert!(field_value(&def("date", &[]), &json!("2024-2-3")).is_err());
    assert!(field_value(&def("email", &[]), &json!("a@b")).is_err());
    assert!(field_value(&def("dropdown", &["A"]), &json!("B")).is_err());
    assert_eq!(
        field_value(&def("checkbox", &["A", "B"]), &json!(["B", "A", "B"])),
        Ok(Some(r#"["B","A"]"#.into()))
    );
    assert!(field_value(&def("checkbox", &["A"]), &json!(["C"])).is_err());
    assert_eq!(field_value(&def("text", &[]), &Value::Null), Ok(None));
}
