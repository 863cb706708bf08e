use chrono::{TimeZone, Utc};

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap()
}

fn table(text: &str) -> toml::Table {
    let doc: toml::Table = text.parse().unwrap();
    doc.get("macros")
        .and_then(|m| m.as_table())
        .cloned()
        .unwrap_or_default()
}

#[test]
fn every_step_verb_reads() {
    let read = |s: &str| parse_step(s, &now()).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(read("tag urgent"), Step::Write(Action::Tag(vec!["urgent".into()])));
    assert_eq!(read("untag  vip "), Step::Write(Action::Untag(vec!["vip".into()])));
    assert_eq!(
        read("assign dana@frontdesk.example"),
        Step::Write(Action::Assign("dana@frontdesk.example".into()))
    );
    assert_eq!(read("unassign"), Step::Write(Action::Unassign));
    assert_eq!(read("team VIP Care"), Step::Team("VIP Care".into()));
    assert_eq!(read("snippet thanks"), Step::Snippet("thanks".into()));
    assert_eq!(read("send"), Step::Send(None));
    assert_eq!(
        read("send Thanks, closing this now."),
        Step::Send(Some("Thanks, closing this now.".into()))
    );
    assert_eq!(read("snooze tomorrow 9:00"), Step::Snooze("tomorrow 9:00".into()));
    assert_eq!(read("Close"), Step::Write(Action::Close));
    assert_eq!(read("open"), Step::Write(Action::Reopen));
    assert_eq!(read("bot stop"), Step::Write(Action::Bot(false)));
}

#[test]
fn bad_steps_say_what_is_wrong() {
    for (step, says) in [
        ("tag", "needs a tag"),
        ("assign not-an-email", "not-an-email"),
        ("close now", "takes nothing"),
        ("snooze someday", "not a time"),
        ("bot maybe", "bot start or bot stop"),
        ("explode", "unknown step"),
        ("\u{1b}[2Jexplode", "unknown step"),
    ] {
        let e = parse_step(step, &now()).unwrap_err();
        assert!(e.contains(says), "{step:?}: {e}");
        assert!(!e.contains('\u{1b}'), "{e:?}");
    }
}

#[test]
fn a_config_gives_macros_and_leaves_out_broken_ones_whole() {
    let (macros, warnings) = parse(
        &table(
            r#"
[macros.escalate]
key = "E"
label = "Escalate to billing"
steps = ["tag urgent", "team Billing", "snippet escalated", "send", "close"]

[macros.plain]
steps = ["close"]

[macros.broken]
steps = ["tag urgent", "fly away"]

[macros.empty]
key = "x"

[macros.odd]
steps = ["close"]
colour = "red"
"#,
        ),
        &now(),
    );
    let names: Vec<&str> = macros.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["escalate", "plain"]);
    let e = &macros[0];
    assert_eq!((e.key.as_deref(), e.label.as_str()), (Some("E"), "Escalate to billing"));
    assert!(e.sends());
    assert_eq!(
        e.writes().cloned().collect::<Vec<_>>(),
        [Action::Tag(vec!["urgent".into()]), Action::Close]
    );
    assert_eq!(macros[1].label, "plain");
    assert!(!macros[1].sends());
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"broken\"") && w.contains("fly away"))
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"empty\"") && w.contains("no steps"))
    );
    assert!(warnings.iter().any(|w| w.contains("\"odd\"") && w.contains("colour")));
}

#[test]
fn the_message_steps_make_one_message_or_the_macro_is_left_out() {
    let (macros, warnings) = parse(
        &table(
            r#"
[macros.bare]
steps = ["send", "close"]
[macros.late]
steps = ["send", "snippet thanks"]
[macros.both]
steps = ["snippet thanks", "send Bye"]
[macros.twice]
steps = ["send Hi", "send Bye"]
[macros.fine]
steps = ["snippet thanks", "send"]
[macros.review]
steps = ["snippet thanks"]
[macros.text]
steps = ["send Bye {{contact.first_name}}"]
"#,
        ),
        &now(),
    );
    let names: Vec<&str> = macros.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["fine", "review", "text"]);
    let has = |name: &str, what: &str| {
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(&format!("\"{name}\"")) && w.contains(what)),
            "{name}: {what} in {warnings:?}"
        )
    };
    has("bare", "put a snippet step before it");
    has("late", "put a snippet step before it");
    has("both", "has its own text");
    has("twice", "at most one message");
}
