//! The commands around the app (issue 13): man, config init/check/path,
//! doctor against the embedded server on 127.0.0.1:0.

use std::io::Write;
use std::process::{Command, Stdio};

use frontdesk::server::{ServerConfig, start};

/// Runs the binary with a clean account environment; returns (code,
/// stdout, stderr).
fn run(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for k in [
        "FRONTDESK_BASE_URL",
        "FRONTDESK_API_KEY",
        "FRONTDESK_USER_UUID",
        "FRONTDESK_USER_EMAIL",
        "FRONTDESK_PROFILE",
        "FRONTDESK_CONFIG",
    ] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run frontdesk");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn man_covers_every_command_and_flag() {
    let (code, page, err) = run(&["man"], "", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        page.starts_with(".ie") || page.contains(".TH frontdesk"),
        "roff: {}",
        &page[..200]
    );
    for cmd in [
        "contacts",
        "messages",
        "bot",
        "templates",
        "channels",
        "funnels",
        "teams",
        "plan",
        "custom-statuses",
        "status",
        "webhooks",
        "completions",
        "serve",
        "man",
        "doctor",
        "keys",
        "config",
    ] {
        assert!(
            page.contains(&format!("FRONTDESK {}", cmd.to_uppercase())),
            "{cmd} has no section"
        );
    }
    for flag in [
        "identifier",
        "subscriptions",
        "clear\\-custom\\-status",
        "no\\-activity",
        "force",
        "markdown",
    ] {
        assert!(
            page.contains(&format!("\\-\\-{flag}")),
            "--{flag} missing from the page"
        );
    }
    for global in ["base\\-url", "api\\-key", "profile", "jsonl"] {
        assert!(page.contains(&format!("\\-\\-{global}")), "--{global} missing");
    }
}

#[test]
fn config_init_check_and_path() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("sub/config.toml");
    let p = path.to_str().unwrap();

    let (code, out, err) = run(&["config", "path", "--config", p], "", &[]);
    assert_eq!((code, out.trim()), (0, p), "{err}");

    let key = "sekrit-key-0123456789";
    let (code, _, err) = run(&["config", "init", "--config", p, "--api-key", key], "", &[]);
    assert_eq!(code, 2, "a key in argv is refused: {err}");
    assert!(!path.exists());

    let (code, _, err) = run(
        &[
            "config",
            "init",
            "--config",
            p,
            "--profile",
            "work",
            "--base-url",
            "https://api.example.com/v1",
            "--user",
            "u-1",
            "--email",
            "not-an-email",
        ],
        &format!("{key}\n"),
        &[],
    );
    assert_eq!(code, 2, "a bad --email is refused before anything is written: {err}");
    assert!(err.contains("\"not-an-email\" is not an email address"), "{err}");
    assert!(!path.exists());
    let (code, out, err) = run(
        &[
            "config",
            "init",
            "--config",
            p,
            "--profile",
            "work",
            "--base-url",
            "https://api.example.com/v1",
            "--user",
            "u-1",
            "--email",
            "me@example.com",
        ],
        &format!("{key}\n"),
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let (code, _, err) = run(
        &["config", "init", "--config", p, "--base-url", "https://x/v1"],
        "k\n",
        &[],
    );
    assert_eq!(code, 1, "an existing file is kept: {err}");
    assert!(err.contains("--force"), "{err}");

    let (code, out, err) = run(
        &["config", "check", "--config", p],
        "",
        &[("FRONTDESK_USER_UUID", "u-env")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(key) && !err.contains(key), "the key is masked: {out}");
    assert!(out.contains("…89 (21 characters)  (file)"), "{out}");
    assert!(out.contains("profile       work  (file)"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("profile ")) && !out.contains('⏎'),
        "one setting a line: {out}"
    );
    assert!(out.contains("user_uuid     u-env  (env)"), "{out}");
    assert!(out.contains("user_email    me@example.com  (file)"), "{out}");
    let (_, out, _) = run(
        &["config", "check", "--config", p, "--email", "flag@example.com"],
        "",
        &[("FRONTDESK_USER_EMAIL", "env@example.com")],
    );
    assert!(out.contains("user_email    flag@example.com  (flag)"), "{out}");
    let (_, out, _) = run(
        &["config", "check", "--config", p],
        "",
        &[("FRONTDESK_USER_EMAIL", "env@example.com")],
    );
    assert!(out.contains("user_email    env@example.com  (env)"), "{out}");
    assert!(
        out.contains("base_url      https://api.example.com/v1  (file)"),
        "{out}"
    );

    // A bad [keys] line and --api-key: reported, exit 1, the rest shown.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n[keys]\nclose = [\"c\", \"x\"]\nzap = \"z\"\n");
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = run(
        &["config", "check", "--config", p, "--api-key", "flagkey-000000"],
        "",
        &[],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("(flag)"), "{out}");
    assert!(err.contains("unknown action \"zap\""), "{err}");
    assert!(err.contains(&format!("{p} line")), "the file and line: {err}");
    assert!(err.contains("process list"), "{err}");
    assert!(!out.contains("flagkey-000000") && !err.contains("flagkey-000000"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_with_a_wrong_key_and_with_the_server_stopped() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = start(
        listener,
        ServerConfig {
            contacts: 3,
            activity: false,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let url = server.base_url.clone();
    let good = server.api_key.clone();
    let env_for = |key: &str| {
        vec![
            ("FRONTDESK_BASE_URL", url.clone()),
            ("FRONTDESK_API_KEY", key.to_string()),
        ]
    };
    let doctor = |key: String| {
        let env = env_for(&key);
        async move {
            tokio::task::spawn_blocking(move || {
                let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
                run(&["doctor", "--config", "/nonexistent/frontdesk.toml"], "", &env)
            })
            .await
            .unwrap()
        }
    };

    let (_, out, _) = doctor(good.clone()).await;
    assert!(out.contains("ok    key      accepted"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("ok    key ")) && !out.contains('⏎'),
        "one check a line: {out}"
    );
    assert!(out.contains("ok    network"), "{out}");
    assert!(out.contains("ok    clock"), "{out}");

    let (code, out, _) = doctor("wrong-key-123".into()).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL  key      refused (401)"), "{out}");
    assert!(out.contains("fix:"), "{out}");
    assert!(!out.contains("wrong-key-123"), "{out}");

    server.stop().await;
    let (code, out, _) = doctor(good.clone()).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL  network  cannot reach"), "{out}");
    assert!(!out.contains(&good), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snippets_are_listed_and_shown_filled_for_a_contact() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let config = config.to_str().unwrap().to_string();
    let run_here = |args: Vec<String>, env: Vec<(String, String)>| async move {
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            run(&args, "", &env)
        })
        .await
        .unwrap()
    };
    let args = |a: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        v.extend(["--config".to_string(), config.clone()]);
        v
    };

    // No file yet: an empty list, and where to write one.
    let (code, out, err) = run_here(args(&["snippets", "list"]), vec![]).await;
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("snippets.toml"), "{err}");
    assert!(!out.contains("thanks"), "{out}");

    std::fs::write(
        dir.path().join("snippets.toml"),
        "thanks = \"Thanks {{contact.first_name}}! {{cursor}}-- {{agent.name}}\"\n\
         \"bad name\" = \"x\"\n\
         [plan]\nlabel = \"Their plan\"\ntext = \"You are on {{contact.custom.Nope}}.\"\n",
    )
    .unwrap();
    let (code, out, err) = run_here(args(&["snippets", "list"]), vec![]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("thanks") && out.contains("Their plan"), "{out}");
    assert!(err.contains("\"bad name\" left out"), "{err}");
    let (code, out, _) = run_here(args(&["snippets", "show", "thanks"]), vec![]).await;
    assert_eq!(code, 0);
    assert_eq!(out, "Thanks {{contact.first_name}}! {{cursor}}-- {{agent.name}}\n");
    let (code, _, err) = run_here(args(&["snippets", "show", "nope"]), vec![]).await;
    assert_eq!(code, 2);
    assert!(err.contains("no snippet \"nope\" (there are: plan, thanks)"), "{err}");

    // Filled for a contact of the embedded server.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = start(
        listener,
        ServerConfig {
            contacts: 3,
            activity: false,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let client =
        frontdesk::api::Client::new(&server.base_url, &server.api_key, std::time::Duration::from_secs(5)).unwrap();
    let page = client
        .list_contacts(&Default::default(), &frontdesk::api::PageRequest::First)
        .await
        .unwrap();
    let contact = &page.items[0];
    let first = contact.name.split_whitespace().next().unwrap().to_string();
    let env = vec![
        ("FRONTDESK_BASE_URL".to_string(), server.base_url.clone()),
        ("FRONTDESK_API_KEY".to_string(), server.api_key.clone()),
    ];
    let (code, out, err) = run_here(
        args(&[
            "snippets",
            "show",
            "thanks",
            "--contact",
            &contact.uuid,
            "--agent",
            "Dana",
        ]),
        env.clone(),
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("Thanks {first}! -- Dana\n"));
    let (code, out, err) = run_here(args(&["snippets", "show", "plan", "--contact", &contact.uuid]), env).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out, "You are on {{contact.custom.Nope}}.\n",
        "a missing variable stays visible"
    );
    assert!(err.contains("{{contact.custom.Nope}} has no value"), "{err}");
    server.stop().await;
}
