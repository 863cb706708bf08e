use super::*;

fn args(text: Option<&str>, template: Option<&str>, values: &[&str]) -> SendArgs {
    SendArgs {
        contact_uuid: "c".into(),
        text: text.map(Into::into),
        template: template.map(Into::into),
        values: values.iter().map(|s| s.to_string()).collect(),
        channel: None,
        media: Default::default(),
    }
}

#[test]
fn text_send_goes_to_the_contacts_identifier_from_its_source() {
    let b = send_body(&args(Some("hi"), None, &[]), "+15550001", "messaging_app");
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"to":"+15550001","from":"messaging_app","type":"text","content":{"text":"hi"}})
    );
}

#[test]
fn template_send_carries_values_and_optin() {
    let b = send_body(&args(None, Some("t1"), &["Ann", "3"]), "+1", "messaging_app");
    let v = serde_json::to_value(&b).unwrap();
    assert_eq!(v["template_uuid"], "t1");
    assert_eq!(v["optin_contact"], true);
    assert_eq!(v["template_values"], serde_json::json!(["Ann", "3"]));
}

#[test]
fn a_file_goes_by_url_with_the_text_as_its_caption() {
    let mut a = args(Some("the manual"), None, &[]);
    a.media.document = Some("https://files.example.com/manual.pdf".into());
    let v = serde_json::to_value(send_body(&a, "+15550001", "whatsapp")).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"to":"+15550001","from":"whatsapp","type":"document",
            "content":{"text":"the manual","url":"https://files.example.com/manual.pdf"}})
    );
    a.media = Default::default();
    a.media.image = Some("/home/me/photo.jpg".into());
    let refused = a.media.check().unwrap_err().message().unwrap();
    assert!(refused.contains("--image takes an http(s) URL"), "{refused}");
}
