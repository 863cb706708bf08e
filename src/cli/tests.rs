use clap::{CommandFactory, Parser};

use super::*;

fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("frontdesk").chain(args.iter().copied()))
}

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

fn help_of(args: &[&str]) -> String {
    let e = parse_from(std::iter::once("frontdesk").chain(args.iter().copied())).unwrap_err();
    assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{args:?}");
    e.render().to_string()
}

#[test]
fn serve_shows_and_accepts_only_its_own_flags() {
    for args in [&["serve", "--help"][..], &["help", "serve"]] {
        let help = help_of(args);
        assert!(help.contains("--contacts"), "{help}");
        for client in ["--json", "--jsonl", "--profile", "--user", "--config", "--base-url"] {
            assert!(!help.contains(client), "{client} in serve's help:\n{help}");
        }
    }
    for bad in [
        &["serve", "--json"][..],
        &["serve", "--profile", "p"],
        &["--json", "serve"],
    ] {
        let e = parse_from(std::iter::once("frontdesk").chain(bad.iter().copied())).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{bad:?}");
    }
    let cli = parse_from(["frontdesk", "serve", "--contacts", "5"]).unwrap();
    assert!(matches!(cli.command, Some(Command::Serve(_))));
}

#[test]
fn help_lists_own_options_before_the_global_ones() {
    let help = help_of(&["contacts", "list", "--help"]);
    let own = help.find("--source").expect("own option");
    let heading = help.find("Global options:").expect("global heading");
    assert!(own < heading, "{help}");
    for global in ["--base-url", "--api-key", "--profile", "--json", "--jsonl"] {
        let at = help.find(global).unwrap_or_else(|| panic!("{global} missing:\n{help}"));
        assert!(at > heading, "{global} is not under the global heading:\n{help}");
    }
    assert!(help.contains("process list"), "--api-key warns:\n{help}");
}

#[test]
fn json_flags_are_global_and_exclusive() {
    let cli = parse(&["contacts", "list", "--json"]).unwrap();
    assert_eq!(cli.output.format(), Format::Json);
    let cli = parse(&["--jsonl", "plan"]).unwrap();
    assert_eq!(cli.output.format(), Format::Jsonl);
    let e = parse(&["plan", "--json", "--jsonl"]).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    let cli = parse(&["plan", "--api-key", "k", "--base-url", "http://127.0.0.1:1/v1"]).unwrap();
    assert_eq!(cli.global.api_key.as_deref(), Some("k"));
}

#[test]
fn page_after_and_all_exclude_each_other() {
    for bad in [
        &["contacts", "list", "--page", "2", "--all"][..],
        &["contacts", "list", "--after", "c", "--page", "2"],
        &["messages", "list", "u", "--after", "c", "--all"],
        &["templates", "list", "--page", "2", "--all"],
        &["contacts", "list", "--page", "0"],
    ] {
        assert_eq!(parse(bad).unwrap_err().exit_code(), 2, "{bad:?}");
    }
    let Some(Command::Contacts(commands::contacts::ContactsCmd::List(a))) =
        parse(&["contacts", "list", "--after", "cur", "--tags", "a, b", "--source", "s"])
            .unwrap()
            .command
    else {
        panic!("not a contacts list");
    };
    assert_eq!(a.position.request(), crate::api::PageRequest::After("cur".into()));
    let f = commands::contacts::list_filter(&a);
    assert_eq!(f.tags, vec!["a", "b"]);
    assert_eq!(f.source.as_deref(), Some("s"));
}

#[test]
fn exclusive_write_flags_are_usage_errors() {
    for bad in [
        &["contacts", "update", "u", "--assign", "a@b.c", "--unassign"][..],
        &["contacts", "update", "u", "--note", "n", "--clear-note"],
        &["contacts", "update", "u", "--field", "novalue"],
        &["contacts", "create", "--identifier", "1", "--source", "s"],
        &[
            "contacts",
            "create",
            "--identifier",
            "1",
            "--source",
            "s",
            "--name",
            "n",
            "--bot",
            "maybe",
        ],
        &["messages", "send", "u"],
        &["messages", "send", "u", "--text", "t", "--template", "x"],
        &["status", "set", "--available", "--away"],
        &["status", "set", "--custom-status", "x", "--clear-custom-status"],
        &["webhooks", "events", "--status", "maybe"],
        &["completions", "powershell"],
    ] {
        assert_eq!(parse(bad).unwrap_err().exit_code(), 2, "{bad:?}");
    }
    let Some(Command::Contacts(commands::contacts::ContactsCmd::Update(u))) = parse(&[
        "contacts",
        "update",
        "u1",
        "--tag",
        "vip,new",
        "--tag",
        "x",
        "--unassign",
        "--clear-note",
        "--bot",
        "end",
    ])
    .unwrap()
    .command
    else {
        panic!("not a contacts update");
    };
    let body = serde_json::to_value(commands::contacts::patch_from_args(&u)).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"tags": ["vip", "new", "x"], "unassign_user": true, "bot_status": "bot_end", "note": ""})
    );
}

#[test]
fn colour_only_on_a_terminal_without_no_color() {
    assert!(use_color(true, None));
    assert!(use_color(true, Some("".into())));
    assert!(!use_color(true, Some("1".into())));
    assert!(!use_color(false, None));
}

#[test]
fn completion_scripts_name_the_commands() {
    use commands::completions::{ShellArg, script};
    for shell in [ShellArg::Bash, ShellArg::Zsh, ShellArg::Fish] {
        let s = String::from_utf8(script(shell)).unwrap();
        assert!(s.contains("custom-statuses"), "{shell:?}");
    }
}

#[test]
fn search_lives_under_contacts_and_the_old_name_still_works_unlisted() {
    let cli = parse(&["contacts", "search", "ada", "love", "--limit", "5", "--json"]).unwrap();
    let Some(Command::Contacts(commands::contacts::ContactsCmd::Search(a))) = cli.command else {
        panic!("contacts search parses as a contacts command");
    };
    assert_eq!((a.text, a.limit), (vec!["ada".to_string(), "love".to_string()], 5));
    assert_eq!(cli.output.format(), Format::Json);
    assert!(matches!(
        parse(&["search", "ada"]).unwrap().command,
        Some(Command::Search(_))
    ));
    let contacts = help_of(&["contacts", "--help"]);
    assert!(contacts.contains("search"), "{contacts}");
    let top = help_of(&["--help"]);
    assert!(
        !top.lines().any(|l| l.trim_start().starts_with("search ")),
        "the old name is not listed:\n{top}"
    );
    let man = String::from_utf8(commands::man::page().unwrap()).unwrap();
    assert!(
        man.lines()
            .any(|l| l.starts_with(".SH") && l.contains("CONTACTS") && l.contains("SEARCH")),
        "the man page has a section for it"
    );
}
