use super::*;

#[test]
fn values_are_taken_out_of_messages() {
    assert_eq!(
        without_values("invalid type: integer `98765432109876`, expected a string"),
        "invalid type: integer, expected a string"
    );
    assert_eq!(
        without_values("invalid type: string \"sekrit\", expected u64"),
        "invalid type: string, expected u64"
    );
    assert_eq!(
        without_values("invalid basic string, expected `\"`"),
        "invalid basic string, expected `\"`"
    );
}

#[test]
fn the_setting_on_a_line_without_its_value() {
    let text = "bell = true\n  api_key = 98765\n";
    assert_eq!(setting_on(text, 2).as_deref(), Some("api_key"));
    assert_eq!(setting_on(text, 3), None);
}
