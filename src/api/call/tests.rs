use super::*;

#[test]
fn a_404_is_read_by_route_and_ids_not_by_wording() {
    let plain = Call::get(&["contacts", "c1"]).about("contact", "c1");
    let contact = ApiError::NotFound {
        what: "contact c1".into(),
    };
    assert_eq!(plain.missing.resolve(None, false), contact);
    assert_eq!(plain.missing.resolve(Some("no route here"), true), contact);
    let members = Call::get(&["teams", "t1", "members"])
        .about("team", "t1")
        .offered("team member lists");
    let team = ApiError::NotFound { what: "team t1".into() };
    let offered = ApiError::NotOffered {
        what: "team member lists".into(),
    };
    // The API's own error shape: the route exists, the team does not,
    // whatever the words.
    assert_eq!(members.missing.resolve(Some("team not found"), true), team);
    assert_eq!(members.missing.resolve(Some("Équipe inconnue"), true), team);
    assert_eq!(members.missing.resolve(Some("endpoint route missing"), true), team);
    // A message naming the id is that resource, in any shape.
    assert_eq!(members.missing.resolve(Some("no T1 here"), false), team);
    // No API error shape: the server lacks the route.
    assert_eq!(members.missing.resolve(None, false), offered);
    assert_eq!(members.missing.resolve(Some("Not Found"), false), offered);
    assert_eq!(members.missing.resolve(Some("team not found"), false), offered);
}

#[test]
fn paging_is_known_from_the_query() {
    assert_eq!(Call::get(&["contacts"]).paging(), None);
    assert_eq!(
        Call::get(&["contacts"]).query("page", "3").paging(),
        Some("Pagination limit exceeded")
    );
    assert_eq!(
        Call::get(&["contacts"]).query("after", "x").paging(),
        Some("Invalid pagination cursor")
    );
}
