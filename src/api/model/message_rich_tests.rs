use serde_json::json;

use super::*;
use crate::api::Message;

fn message(v: Value) -> Message {
    serde_json::from_value(v).unwrap()
}

#[test]
fn the_documented_example_reads_every_part() {
    let m = message(json!({
        "text": "Hello", "status": "received",
        "attachments": ["https://files.example.com/u/1/manual.pdf?sig=abc"],
        "messageLocation": { "coordinates": { "x": -23.6054, "y": -46.6373 }, "googleMapsLocation": "https://maps.googleapis.com/x" },
        "messageContactCard": { "contactsInfo": [{ "name": "Peter Parker", "phones": [{ "phone": "3331122336699", "wa_id": "", "type": "MOBILE" }] }] },
        "messageReplyButton": { "metadata": { "type": "quick_reply",
            "content": { "url": "https://url.com/file.png", "text": "hello text", "filename": "file.png", "contentType": "image" },
            "options": [{ "type": "text", "title": "Yes" }, { "type": "text", "title": "No" }] } },
        "messageInteractiveList": { "metadata": "{\"header\":\"Welcome\",\"body\":\"Our menu\",\"sections\":[{\"title\":\"Breakfast\",\"items\":[{\"header\":\"Yogurt\"},{\"header\":\"Pancakes\"}]}]}" },
        "mesageContext": { "target": { "text": "Which size?", "status": "sent" } },
        "messageForward": { "forwarded": true },
    }));
    let r = &m.rich;
    let files = r.attachments();
    assert_eq!(files.len(), 2);
    assert_eq!(
        (files[0].kind, files[0].file_name.as_str()),
        (AttachmentKind::Document, "manual.pdf")
    );
    assert_eq!(
        (files[1].kind, files[1].file_name.as_str()),
        (AttachmentKind::Image, "file.png")
    );
    let loc = r.location().unwrap();
    assert_eq!(loc.map_link(), "https://www.google.com/maps?q=-23.6054,-46.6373");
    assert_eq!(
        r.contact_card(),
        vec![CardPerson {
            name: "Peter Parker".into(),
            phones: vec!["3331122336699".into()]
        }]
    );
    assert_eq!(r.reply_buttons().unwrap().options, vec!["Yes", "No"]);
    let list = r.interactive_list().unwrap();
    assert_eq!(
        (list.header.as_str(), list.options.clone()),
        (
            "Welcome",
            vec!["Breakfast: Yogurt".to_string(), "Breakfast: Pancakes".to_string()]
        )
    );
    assert_eq!(r.quoted().unwrap().text, "Which size?");
    assert!(r.forwarded());
    assert!(!r.is_empty());
}

#[test]
fn a_message_written_back_keeps_its_parts_under_the_documented_names() {
    let m = message(
        json!({ "text": "x", "messageContext": { "target": { "text": "earlier" } },
                            "attachments": ["https://a.example/v.mp4"] }),
    );
    let back = serde_json::to_value(&m).unwrap();
    assert_eq!(back["mesageContext"]["target"]["text"], "earlier");
    assert_eq!(back["attachments"][0], "https://a.example/v.mp4");
    assert_eq!(message(back), m);
    let plain = serde_json::to_value(message(json!({ "text": "x" }))).unwrap();
    assert!(plain.get("attachments").is_none() && plain.get("messageForward").is_none());
}

#[test]
fn odd_shapes_are_ignored_never_a_failure() {
    for odd in [
        json!({ "attachments": "nope" , "messageLocation": { "coordinates": { "x": "a", "y": null } } }),
        json!({ "attachments": [1, null, {"no": "url"}], "messageContactCard": 7 }),
        json!({ "messageReplyButton": { "metadata": "{not json" }, "messageInteractiveList": [] }),
        json!({ "mesageContext": { "target": 3 }, "messageForward": "yes" }),
        json!({ "attachments": null, "messageLocation": null }),
    ] {
        let m = message(odd.clone());
        assert!(m.rich.is_empty(), "{odd} showed something");
        assert!(m.rich.links().is_empty());
    }
}

#[test]
fn attachment_kinds_follow_the_file_or_the_declared_type() {
    let m = message(json!({ "attachments": [
        "https://x.example/a/voice.OGG", "https://x.example/clip.mov", "https://x.example/p.jpeg",
        { "url": "https://x.example/dl?id=9", "contentType": "audio/mpeg" }, "https://x.example/",
    ] }));
    let kinds: Vec<_> = m
        .rich
        .attachments()
        .iter()
        .map(|a| (a.kind.label(), a.file_name.clone()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("audio", "voice.OGG".to_string()),
            ("video", "clip.mov".into()),
            ("image", "p.jpeg".into()),
            ("audio", "dl".into()),
            ("document", "x.example".into()),
        ]
    );
}
