//! `[[views]]`: reading with lines, a bad view not stopping the others,
//! and saving one back without disturbing the file.

use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::config::{GlobalArgs, Settings, load_from};
use crate::triage::{Assignee, Sort, State};

fn load(text: &str) -> (Settings, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    let args = GlobalArgs {
        config: Some(path.clone()),
        ..Default::default()
    };
    (load_from(&args, &|_| None, None).unwrap(), path, dir)
}

const GOOD: &str = r#"
refresh_secs = 5

[[views]]
name = "VIP waiting"
state = "open"
waiting = "2h"
tags_any = ["vip", "gold"]

[[views]]
name = "Refunds"
short = "Refund"
assignee = "nobody"
text = "refund"
fields = { plan = "gold", seats = 3 }
older_than = "7d"
tags_all = "billing, urgent"
source = "whatsapp"
team = "t-1"
sort = "waiting"
"#;

#[test]
fn views_load_in_file_order_with_every_key() {
    let (s, _, _d) = load(GOOD);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let names: Vec<&str> = s.views.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["VIP waiting", "Refunds"]);
    let vip = &s.views[0];
    assert_eq!(vip.filter.state, State::Open);
    assert_eq!(vip.filter.waiting, Some(Duration::from_secs(7200)));
    assert_eq!(vip.filter.tags_any, ["vip", "gold"]);
    assert_eq!((vip.short.as_str(), vip.sort), ("VIP wait", Sort::LongestWait));
    let r = &s.views[1];
    assert_eq!(r.short, "Refund");
    assert_eq!(r.filter.assignee, Some(Assignee::Nobody));
    assert_eq!(
        r.filter.fields,
        [("plan".to_string(), "gold".to_string()), ("seats".into(), "3".into())]
    );
    assert_eq!(r.filter.older_than, Some(Duration::from_secs(7 * 86_400)));
    assert_eq!(r.filter.tags_all, ["billing", "urgent"]);
    assert_eq!(
        (r.filter.source.as_deref(), r.filter.team.as_deref()),
        (Some("whatsapp"), Some("t-1"))
    );
    assert_eq!(r.filter.text.as_deref(), Some("refund"));
    assert_eq!(r.sort, Sort::LongestWait);
}

#[test]
fn a_bad_view_is_named_by_file_and_line_and_the_others_still_load() {
    let text = r#"[[views]]
name = "Good one"
state = "open"

[[views]]
name = "Typo"
colour = "red"

[[views]]
name = "Bad wait"
waiting = "two hours"

[[views]]
name = "Bad state"
state = "pending"

[[views]]
state = "open"

[[views]]
name = "Open"

[[views]]
name = "Also good"
assignee = "me"
"#;
    let (s, path, _d) = load(text);
    let names: Vec<&str> = s.views.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Good one", "Also good"]);
    let file = path.display().to_string();
    let expect = [
        (
            format!("{file} line 7: view \"Typo\": unknown key \"colour\""),
            "a view takes name",
        ),
        (format!("{file} line 11: view \"Bad wait\": waiting:"), "30m, 2h or 7d"),
        (
            format!("{file} line 15: view \"Bad state\": state must be open, closed or any"),
            "pending",
        ),
        (format!("{file} line 17: a view: has no name"), "name ="),
        (
            format!("{file} line 20: view \"Open\": another view already has this name"),
            "rename",
        ),
    ];
    assert_eq!(s.warnings.len(), expect.len(), "{:#?}", s.warnings);
    for ((start, also), w) in expect.iter().zip(&s.warnings) {
        assert!(
            w.starts_with(start.as_str()) && w.contains(also),
            "{w}\nwanted {start} … {also}"
        );
    }
}

#[test]
fn views_that_are_not_tables_are_a_warning() {
    let (s, _, _d) = load("views = \"mine\"\n");
    assert!(s.views.is_empty());
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("line 1") && w.contains("[[views]]")),
        "{:?}",
        s.warnings
    );
}

const COMMENTED: &str = r#"# my frontdesk settings
refresh_secs = 5   # fast

# the views I use every morning
[[views]]
name = "VIP waiting"   # customers who pay
waiting = "2h"

[profiles.work]
# the office account
base_url = "https://work.example.com/v1"
"#;

#[test]
fn saving_a_new_view_appends_it_and_keeps_the_files_comments_and_order() {
    let (_, path, _d) = load(COMMENTED);
    let mut view = View::new(
        "Stale unassigned",
        crate::triage::ViewFilter {
            state: State::Open,
            assignee: Some(Assignee::Nobody),
            older_than: Some(Duration::from_secs(7 * 86_400)),
            tags_any: vec!["vip".into()],
            fields: vec![("plan".into(), "gold".into())],
            ..Default::default()
        },
    );
    view.short = "Stale".into();
    save_view(&path, &view).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    for kept in [
        "# my frontdesk settings",
        "refresh_secs = 5   # fast",
        "# the views I use every morning",
        "name = \"VIP waiting\"   # customers who pay",
        "# the office account",
    ] {
        assert!(after.contains(kept), "lost {kept:?}:\n{after}");
    }
    assert!(after.find("VIP waiting") < after.find("Stale unassigned"), "{after}");
    // It reads back as it was saved, after the others.
    let (s, _, _d2) = load(&after);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(s.views.len(), 2);
    assert_eq!(s.views[1], view);
    assert_eq!(s.profile, "default");
}

#[test]
fn saving_a_view_of_the_same_name_replaces_it_where_it_stands() {
    let (_, path, _d) = load(COMMENTED);
    let view = View::new(
        "vip WAITING",
        crate::triage::ViewFilter {
            waiting: Some(Duration::from_secs(1800)),
            ..Default::default()
        },
    );
    save_view(&path, &view).unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("# the views I use every morning"), "{after}");
    assert_eq!(after.matches("[[views]]").count(), 1, "{after}");
    let (s, _, _d2) = load(&after);
    assert_eq!(s.views.len(), 1);
    assert_eq!(s.views[0].filter.waiting, Some(Duration::from_secs(1800)));
    assert!(after.find("[[views]]") < after.find("[profiles.work]"), "{after}");
}

#[test]
fn saving_into_a_missing_file_creates_it_readable_by_its_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/config.toml");
    save_view(&path, &View::new("Mine too", Default::default())).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[[views]]") && text.contains("name = \"Mine too\""),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn among_thousands_of_views_a_repeated_name_is_still_caught() {
    let mut text = String::new();
    for i in 0..3_000 {
        text.push_str(&format!("[[views]]\nname = \"View {i}\"\nshort = \"V{i}\"\n"));
    }
    // The same name in another case, another view's short name, a
    // built-in's name and a built-in's short one.
    for name in ["view 17", "v2999", "OPEN", "Unassign"] {
        text.push_str(&format!("[[views]]\nname = \"{name}\"\n"));
    }
    text.push_str("[[views]]\nname = \"Émile\"\n[[views]]\nname = \"ÉMILE\"\n");
    let (s, _, _d) = load(&text);
    assert_eq!(s.views.len(), 3_001, "{:?}", s.warnings);
    let repeated: Vec<&String> = s
        .warnings
        .iter()
        .filter(|w| w.contains("another view already has this name"))
        .collect();
    assert_eq!(repeated.len(), 5, "{repeated:?}");
    for name in ["view 17", "v2999", "OPEN", "Unassign", "ÉMILE"] {
        assert!(
            repeated.iter().any(|w| w.contains(&format!("view \"{name}\""))),
            "{name}: {repeated:?}"
        );
    }
}
