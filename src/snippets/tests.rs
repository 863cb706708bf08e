use super::*;

fn vars() -> Vars {
    Vars {
        contact_name: Some("Ana Conceição".into()),
        custom: BTreeMap::from([("Plan".to_string(), "Pro".to_string())]),
        agent_name: Some("Dana".into()),
    }
}

#[test]
fn variables_are_filled_and_the_cursor_lands_where_marked() {
    let f = fill(
        "Hi {{contact.first_name}}, {{cursor}}\n-- {{ agent.name }} ({{contact.custom.Plan}})",
        &vars(),
    );
    assert_eq!(f.text, "Hi Ana, \n-- Dana (Pro)");
    assert_eq!(f.cursor, "Hi Ana, ".chars().count());
    assert!(f.missing.is_empty());
    let whole = fill("{{contact.name}}", &vars());
    assert_eq!((whole.text.as_str(), whole.cursor), ("Ana Conceição", 13));
}

#[test]
fn a_missing_variable_is_shown_and_named_not_blanked() {
    let f = fill(
        "Your {{contact.custom.Company}} order, {{contact.nmae}} {{contact.custom.Company}}",
        &vars(),
    );
    assert_eq!(
        f.text,
        "Your {{contact.custom.Company}} order, {{contact.nmae}} {{contact.custom.Company}}"
    );
    assert_eq!(f.missing, ["contact.custom.Company", "contact.nmae"]);
    let nameless = fill("Hi {{contact.first_name}}", &Vars::default());
    assert_eq!(nameless.text, "Hi {{contact.first_name}}");
    assert_eq!(nameless.missing, ["contact.first_name"]);
}

#[test]
fn unclosed_braces_stay_as_typed() {
    let f = fill("a {{contact.name and {{", &vars());
    assert_eq!(f.text, "a {{contact.name and {{");
    assert_eq!(f.cursor, f.text.chars().count());
}

#[test]
fn a_contacts_fields_become_variables() {
    let mut c: Contact = serde_json::from_value(serde_json::json!({
        "uuid": "u1", "name": "  ", "phoneNumber": "+1", "source": "whatsapp", "tags": [],
        "customFields": {"Interests": ["Shoes", "Bags"], "Company": ""}
    }))
    .unwrap();
    let v = Vars::of(&c, Some("Dana"));
    assert_eq!(v.contact_name, None);
    assert_eq!(v.custom.get("Interests").map(String::as_str), Some("Shoes, Bags"));
    assert!(!v.custom.contains_key("Company"));
    c.name = "Bo Li".into();
    assert_eq!(
        fill("{{contact.first_name}}/{{agent.name}}", &Vars::of(&c, Some("Dana"))).text,
        "Bo/Dana"
    );
}

#[test]
fn a_file_gives_sorted_snippets_and_names_what_it_leaves_out() {
    let s = parse(
        r#"
thanks = "Thanks {{contact.first_name}}!"
"bad name" = "x"
empty = "  "
number = 3
[refund]
label = "Refund policy"
text = """
Refunds take 5 days.
\u001b[2J"""
[nolabel]
title = "x"
"#,
    )
    .unwrap();
    let names: Vec<&str> = s.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["refund", "thanks"]);
    assert_eq!(s.get("thanks").unwrap().label, "Thanks {{contact.first_name}}!");
    let refund = s.get("refund").unwrap();
    assert_eq!(refund.label, "Refund policy");
    assert!(!refund.text.contains('\u{1b}'), "{:?}", refund.text);
    assert!(refund.text.contains("Refunds take 5 days.\n"));
    assert_eq!(s.warnings.len(), 4, "{:?}", s.warnings);
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("\"bad name\"") && w.contains("shortcode"))
    );
}

#[test]
fn a_missing_file_is_no_snippets_and_a_broken_one_is_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(load(&dir.path().join(FILE_NAME)).unwrap(), Snippets::default());
    let path = dir.path().join(FILE_NAME);
    std::fs::write(&path, "thanks = \"unclosed").unwrap();
    let e = load(&path).unwrap_err();
    assert!(e.contains(FILE_NAME), "{e}");
    assert_eq!(
        path_beside(Path::new("/a/b/config.toml")),
        Some(PathBuf::from("/a/b/snippets.toml"))
    );
}

#[test]
fn the_config_s_snippets_table_joins_the_file_and_the_file_wins_a_clash() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(dir.path().join(FILE_NAME), "thanks = \"From the file\"\n").unwrap();
    let table: toml::Table = "thanks = \"From the config\"\nbye = \"Bye {{contact.name}}\"\n\"bad name\" = \"x\"\n"
        .parse()
        .unwrap();
    let s = load_all(Some(&config), &table).unwrap();
    let names: Vec<&str> = s.items.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["bye", "thanks"]);
    assert_eq!(s.get("thanks").unwrap().text, "From the file");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("\"thanks\" is in [snippets] and in snippets.toml")),
        "{:?}",
        s.warnings
    );
    assert!(
        s.warnings
            .iter()
            .any(|w| w.starts_with("[snippets]: snippet \"bad name\" left out")),
        "{:?}",
        s.warnings
    );
    // No file, no config directory: the table alone.
    let s = load_all(None, &table).unwrap();
    assert_eq!(s.get("thanks").unwrap().text, "From the config");
}

#[test]
fn the_teams_snippets_join_the_local_ones_and_the_local_one_wins_a_name() {
    let mut local = parse("thanks = \"Local thanks\"\nbye = \"Bye\"").unwrap();
    let team = from_pairs([
        ("thanks".to_string(), None, "Team thanks".to_string()),
        (
            "refund".to_string(),
            Some("Refund\u{1b}[31m".to_string()),
            "Refund policy\u{7}".to_string(),
        ),
        ("bad name!".to_string(), None, "x".to_string()),
        ("empty".to_string(), None, "  ".to_string()),
    ]);
    assert_eq!(team.warnings.len(), 2, "{:?}", team.warnings);
    merge_team(&mut local, team);
    let names: Vec<&str> = local.items.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["bye", "refund", "thanks"]);
    assert_eq!(local.get("thanks").unwrap().text, "Local thanks");
    let refund = local.get("refund").unwrap();
    assert_eq!(
        refund.text, "Refund policy",
        "control characters from a server are dropped"
    );
    assert!(!refund.label.contains('\u{1b}'), "{:?}", refund.label);
    assert_eq!(local.team.iter().collect::<Vec<_>>(), ["refund"]);
    assert!(local.warnings.iter().all(|w| w.starts_with("team snippets: ")));
}
