//! Finding a contact by phone number and by bsuid: the same answer as
//! `contact_details`, a clear error for a number nobody has or one that
//! is not a number.

use serde_json::{Value, json};

use super::common;
use super::support::{data, start};

#[test]
fn a_contact_is_found_by_phone_and_by_bsuid_as_contact_details_gives_it() {
    let server = common::spawn_blocking(common::config(40, 12));
    let home = tempfile::tempdir().unwrap();
    let mut s = start(&server, home.path(), false);
    s.wait_complete();
    let raw = common::Raw::new(&server);
    let all = common::runtime().block_on(raw.ok("/contacts"));
    let contacts = all["contacts"].as_array().unwrap().clone();
    let with_phone = contacts
        .iter()
        .find(|c| c["phoneNumber"].as_str().is_some_and(|p| !p.is_empty()))
        .unwrap();
    let uuid = with_phone["uuid"].as_str().unwrap();

    let (err, details) = s.call("contact_details", json!({ "contact": uuid }));
    assert!(!err, "{details}");
    let (err, found) = s.call("contact_by_phone", json!({ "phone": with_phone["phoneNumber"] }));
    assert!(!err, "{found}");
    let strip = |t: &str| {
        let mut v: Value = data(t);
        v.as_object_mut().unwrap().remove("asOf");
        v
    };
    assert_eq!(strip(&found), strip(&details));

    let bsuid = contacts
        .iter()
        .filter_map(|c| c["uuid"].as_str())
        .map(|u| common::runtime().block_on(raw.ok(&format!("/contacts/{u}"))))
        .find_map(|c| {
            let c = c["contact"][0].clone();
            c["bsuid"].as_str().map(|b| (b.to_string(), c["uuid"].clone()))
        });
    let (bsuid, owner) = bsuid.expect("a seeded contact with a bsuid");
    let (err, found) = s.call("contact_by_bsuid", json!({ "bsuid": bsuid }));
    assert!(!err, "{found}");
    assert_eq!(data(&found)["uuid"], owner);
    assert_eq!(data(&found)["bsuid"], json!(bsuid));

    let (err, none) = s.call("contact_by_phone", json!({ "phone": "+99 000 000 0000" }));
    assert!(
        err && none.contains("no contact has the phone number +990000000000"),
        "{none}"
    );
    let (err, bad) = s.call("contact_by_phone", json!({ "phone": "call me" }));
    assert!(err && bad.contains("is not a phone number"), "{bad}");
    let (err, bad) = s.call("contact_by_bsuid", json!({ "bsuid": "a/../b" }));
    assert!(err && bad.contains("bsuid"), "{bad}");
}
