//! Config loading: precedence, profiles, malformed files, permissions.

use super::*;
use std::collections::HashMap;
use std::path::Path;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn file(&self, text: &str, mode: u32) -> PathBuf {
        let p = self.dir.path().join("config.toml");
        std::fs::write(&p, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        #[cfg(not(unix))]
        let _ = mode;
        p
    }
}

fn args(config: &Path) -> GlobalArgs {
    GlobalArgs {
        config: Some(config.to_path_buf()),
        ..Default::default()
    }
}

fn load_with(args: &GlobalArgs, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
    let env: HashMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    load_from(args, &|k| env.get(k).cloned(), None)
}

const TWO_PROFILES: &str = r#"
default_profile = "work"
refresh_secs = 9
bell = true

[profiles.work]
base_url = "https://work.example.com/v1"
api_key = "work-key"
user_uuid = "u-work"
timeout_secs = 30

[profiles.home]
base_url = "https://home.example.com/v1"
api_key = "home-key"
refresh_secs = 2
bell = false
"#;

#[test]
fn missing_default_file_gives_demo_defaults() {
    let f = Fixture::new();
    let s = load_from(&GlobalArgs::default(), &|_| None, Some(f.dir.path().join("nope.toml"))).unwrap();
    assert_eq!(s.profile, "default");
    assert_eq!(s.api_key, None);
    assert_eq!(s.base_url, None);
    assert_eq!(s.timeout, Duration::from_secs(15));
    assert_eq!(s.refresh_interval, Duration::from_secs(5));
    assert!(!s.bell);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(s.config_path, Some(f.dir.path().join("nope.toml")));
}

#[test]
fn profiles_and_global_defaults() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.profile, "work");
    assert_eq!(s.base_url.as_deref(), Some("https://work.example.com/v1"));
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("work-key"));
    assert_eq!(s.user_uuid.as_deref(), Some("u-work"));
    assert_eq!(s.timeout, Duration::from_secs(30));
    assert_eq!(s.refresh_interval, Duration::from_secs(9));
    assert!(s.bell);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);

    let s = load_with(&args(&p), &[("FRONTDESK_PROFILE", "home")]).unwrap();
    assert_eq!(s.profile, "home");
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("home-key"));
    assert_eq!(s.user_uuid, None);
    assert_eq!(s.timeout, Duration::from_secs(15));
    assert_eq!(s.refresh_interval, Duration::from_secs(2));
    assert!(!s.bell);
}

#[test]
fn flags_beat_env_beat_file() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let env = [
        ("FRONTDESK_API_KEY", "env-key"),
        ("FRONTDESK_BASE_URL", "https://env.example.com/v1"),
        ("FRONTDESK_USER_UUID", "u-env"),
        ("FRONTDESK_PROFILE", "work"),
    ];
    let s = load_with(&args(&p), &env).unwrap();
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("env-key"));
    assert_eq!(s.base_url.as_deref(), Some("https://env.example.com/v1"));
    assert_eq!(s.user_uuid.as_deref(), Some("u-env"));

    let mut a = args(&p);
    a.api_key = Some("flag-key".into());
    a.base_url = Some("https://flag.example.com/v1".into());
    a.user_uuid = Some("u-flag".into());
    a.profile = Some("home".into());
    let s = load_with(&a, &env).unwrap();
    assert_eq!(s.profile, "home");
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("flag-key"));
    assert_eq!(s.base_url.as_deref(), Some("https://flag.example.com/v1"));
    assert_eq!(s.user_uuid.as_deref(), Some("u-flag"));
}

#[test]
fn config_path_from_env() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let s = load_with(&GlobalArgs::default(), &[("FRONTDESK_CONFIG", p.to_str().unwrap())]).unwrap();
    assert_eq!(s.profile, "work");
    assert_eq!(s.config_path.as_deref(), Some(p.as_path()));
}

#[test]
fn unknown_profile_lists_known_ones() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let mut a = args(&p);
    a.profile = Some("play".into());
    let e = load_with(&a, &[]).unwrap_err();
    assert!(e.0.contains("\"play\""), "{e}");
    assert!(e.0.contains("home, work"), "{e}");
    assert!(e.0.contains(&p.display().to_string()), "{e}");
}

#[test]
fn top_level_keys_are_the_default_profile_only() {
    let f = Fixture::new();
    let text = "base_url = \"https://top.example.com/v1\"\napi_key = \"top-key\"\n\n\
                [profiles.other]\nbase_url = \"https://other.example.com/v1\"\n";
    let p = f.file(text, 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.profile, "default");
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("top-key"));
    let mut a = args(&p);
    a.profile = Some("other".into());
    let s = load_with(&a, &[]).unwrap();
    assert_eq!(
        s.api_key, None,
        "the top-level key must not travel to another profile's host"
    );
    assert_eq!(s.base_url.as_deref(), Some("https://other.example.com/v1"));
}

#[test]
fn malformed_file_names_file_line_and_problem() {
    let f = Fixture::new();
    let p = f.file(
        "bell = true\n\n[profiles.work]\nbase_url = \"https://x/v1\napi_key = 3\n",
        0o600,
    );
    let e = load_with(&args(&p), &[]).unwrap_err();
    assert!(e.0.starts_with(&format!("{} line 4 (base_url):", p.display())), "{e}");

    let p = f.file("refresh_secs = \"soon\"\n", 0o600);
    let e = load_with(&args(&p), &[]).unwrap_err();
    assert!(e.0.contains("line 1 (refresh_secs):"), "{e}");
    assert!(e.0.contains("integer") || e.0.contains("u64"), "{e}");
}

#[test]
fn key_without_base_url_is_an_error() {
    let f = Fixture::new();
    let p = f.file("api_key = \"k\"\n", 0o600);
    let e = load_with(&args(&p), &[]).unwrap_err();
    assert!(e.0.contains("no base URL"), "{e}");
    let s = load_with(&args(&p), &[("FRONTDESK_BASE_URL", "https://x.example.com/v1")]).unwrap();
    assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("k"));
}

#[test]
fn zero_intervals_are_refused() {
    let f = Fixture::new();
    let p = f.file("timeout_secs = 0\n", 0o600);
    assert!(load_with(&args(&p), &[]).unwrap_err().0.contains("timeout_secs"));
}

#[cfg(unix)]
#[test]
fn readable_key_file_gets_a_chmod_warning() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o644);
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(
        s.warnings[0].contains(&format!("chmod 600 {}", p.display())),
        "{:?}",
        s.warnings
    );

    let p = f.file("bell = true\n", 0o644);
    let s = load_with(&args(&p), &[]).unwrap();
    assert!(s.warnings.is_empty(), "no key, no warning: {:?}", s.warnings);
}

#[test]
fn unknown_keys_warn_and_explicit_missing_file_warns() {
    let f = Fixture::new();
    let p = f.file("api-key = \"x\"\n[profiles.a]\ncolour = 1\n", 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].contains("api-key") && s.warnings[0].contains("profiles.a.colour"));

    let s = load_with(&args(&f.dir.path().join("missing.toml")), &[]).unwrap();
    assert!(s.warnings[0].contains("does not exist"), "{:?}", s.warnings);
}

#[test]
fn settings_debug_hides_the_key() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    let shown = format!("{s:?}");
    assert!(!shown.contains("work-key"), "{shown}");
}

#[test]
fn settings_build_a_client_or_demo_mode() {
    let s = load_from(&GlobalArgs::default(), &|_| None, None).unwrap();
    assert!(s.is_demo());
    assert!(s.client().unwrap().is_none());
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    let client = s.client().unwrap().expect("a key is set");
    assert_eq!(client.base_url(), "https://work.example.com/v1");
    let mut a = args(&p);
    a.base_url = Some("http://work.example.com/v1".into());
    assert!(matches!(
        load_with(&a, &[]).unwrap().client(),
        Err(crate::api::ApiError::Config(_))
    ));
}

#[test]
fn a_mistyped_key_names_its_real_line_and_never_its_value() {
    let f = Fixture::new();
    let p = f.file(
        "bell = true\n\n[profiles.work]\nbase_url = \"https://x.example.com/v1\"\napi_key = 98765432109876\n",
        0o600,
    );
    let e = load_with(&args(&p), &[]).unwrap_err().0;
    assert!(e.starts_with(&format!("{} line 5 (api_key):", p.display())), "{e}");
    assert!(!e.contains("98765432109876"), "the key's value leaked: {e}");

    let p = f.file("# comment\nbell = true\napi_key = 1234567\n", 0o600);
    let e = load_with(&args(&p), &[]).unwrap_err().0;
    assert!(e.contains("line 3 (api_key)"), "{e}");
    assert!(!e.contains("1234567"), "{e}");

    let p = f.file("bell = true\n\nrefresh_secs = \"soon\"\n", 0o600);
    let e = load_with(&args(&p), &[]).unwrap_err().0;
    assert!(e.contains("line 3 (refresh_secs)"), "{e}");
}

#[test]
fn looks_and_keys_come_from_the_file_with_lines() {
    let f = Fixture::new();
    let p = f.file(
        "theme = \"light\"\nmouse = true\ntitle = false\n\n[keys]\nclose = [\"c\", \"x\"]\nnext = \"j\"\nquit = 3\n",
        0o600,
    );
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.looks.theme.as_deref(), Some("light"));
    assert!(s.looks.mouse && !s.looks.title);
    let at = |n: usize| format!("{} line {n}", p.display());
    assert_eq!(
        s.looks.keys,
        vec![
            KeyEntry {
                action: "close".into(),
                keys: vec!["c".into(), "x".into()],
                at: at(6)
            },
            KeyEntry {
                action: "next".into(),
                keys: vec!["j".into()],
                at: at(7)
            },
        ]
    );
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(
        s.warnings[0].starts_with(&format!("{} line 8: keys.quit", p.display())),
        "{:?}",
        s.warnings
    );

    let s = load_with(&args(&f.file("bell = true\n", 0o600)), &[]).unwrap();
    assert_eq!(
        s.looks,
        Looks {
            title: true,
            image_previews: true,
            hyperlinks: true,
            ..Default::default()
        },
        "defaults: no mouse, title on, previews and hyperlinks on"
    );
}

#[test]
fn hyperlinks_can_be_turned_off() {
    let f = Fixture::new();
    let s = load_with(&args(&f.file("hyperlinks = false\n", 0o600)), &[]).unwrap();
    assert!(!s.looks.hyperlinks);
    assert!(s.looks.image_previews, "the other looks keep their defaults");
    assert!(s.warnings.is_empty(), "a known key: {:?}", s.warnings);
}

#[test]
fn sources_say_where_each_setting_came_from() {
    let f = Fixture::new();
    let p = f.file(TWO_PROFILES, 0o600);
    let mut a = args(&p);
    a.api_key = Some("flag-key".into());
    let s = load_with(&a, &[("FRONTDESK_USER_UUID", "u-env")]).unwrap();
    assert_eq!(s.source("api_key"), Source::Flag);
    assert_eq!(s.source("user_uuid"), Source::Env);
    assert_eq!(s.source("base_url"), Source::File);
    assert_eq!(s.source("profile"), Source::File);
    let s = load_from(&GlobalArgs::default(), &|_| None, None).unwrap();
    assert_eq!(s.source("api_key"), Source::Default);
}

#[test]
fn account_overlay_keys_nest_under_keys_account() {
    let f = Fixture::new();
    let p = f.file("[keys]\nquit = \"Q\"\n\n[keys.account]\nrename = [\"E\"]\n", 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    let names: Vec<(&str, &str)> = s
        .looks
        .keys
        .iter()
        .map(|e| (e.action.as_str(), e.at.rsplit(' ').next().unwrap()))
        .collect();
    assert_eq!(names, vec![("quit", "2"), ("account.rename", "5")]);
}

#[test]
fn user_email_from_file_env_and_flag_in_that_order() {
    let f = Fixture::new();
    let text = "user_email = \"top@example.com\"\n\n[profiles.work]\nuser_email = \"work@example.com\"\n";
    let p = f.file(text, 0o600);
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(
        s.user_email.as_deref(),
        Some("top@example.com"),
        "top level is the default profile"
    );
    assert_eq!(s.source("user_email"), Source::File);
    let s = load_with(&args(&p), &[("FRONTDESK_PROFILE", "work")]).unwrap();
    assert_eq!(s.user_email.as_deref(), Some("work@example.com"));

    let env = [("FRONTDESK_USER_EMAIL", "env@example.com")];
    let s = load_with(&args(&p), &env).unwrap();
    assert_eq!(s.user_email.as_deref(), Some("env@example.com"));
    assert_eq!(s.source("user_email"), Source::Env);

    let mut a = args(&p);
    a.user_email = Some("flag@example.com".into());
    let s = load_with(&a, &env).unwrap();
    assert_eq!(s.user_email.as_deref(), Some("flag@example.com"));
    assert_eq!(s.source("user_email"), Source::Flag);

    // Top-level account keys never leak into a named profile.
    let p = f.file("user_email = \"top@example.com\"\n[profiles.home]\n", 0o600);
    let s = load_with(&args(&p), &[("FRONTDESK_PROFILE", "home")]).unwrap();
    assert_eq!(s.user_email, None);
    assert_eq!(s.source("user_email"), Source::Default);
}

#[test]
fn a_user_email_that_is_not_an_email_is_refused_naming_where_it_came_from() {
    let f = Fixture::new();
    let p = f.file("[profiles.work]\nuser_email = \"alex at work\"\n", 0o600);
    let a = GlobalArgs {
        profile: Some("work".into()),
        ..args(&p)
    };
    let e = load_with(&a, &[]).unwrap_err().0;
    assert!(e.contains("user_email in") && e.contains("config.toml"), "{e}");
    assert!(e.contains("\"alex at work\" is not an email address"), "{e}");

    let e = load_with(&args(&p), &[("FRONTDESK_USER_EMAIL", "nobody@")])
        .unwrap_err()
        .0;
    assert!(e.starts_with("FRONTDESK_USER_EMAIL:"), "{e}");
    let mut a = args(&p);
    a.user_email = Some("me@localhost".into());
    let e = load_with(&a, &[("FRONTDESK_USER_EMAIL", "ok@example.com")])
        .unwrap_err()
        .0;
    assert!(e.starts_with("--email:"), "{e}");
    a.user_email = Some("  me@example.com ".into());
    assert_eq!(
        load_with(&a, &[]).unwrap().user_email.as_deref(),
        Some("me@example.com")
    );
}

mod hub;
mod index_settings;
mod inert;

#[test]
fn a_snippets_table_is_read_and_a_wrong_shape_is_a_warning() {
    let f = Fixture::new();
    let s = load_with(
        &args(&f.file("[snippets]\nhi = \"Hello {{contact.first_name}}\"\n", 0o600)),
        &[],
    )
    .unwrap();
    assert_eq!(
        s.looks.snippets.get("hi").and_then(|v| v.as_str()),
        Some("Hello {{contact.first_name}}")
    );
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let s = load_with(&args(&f.file("snippets = \"no\"\n", 0o600)), &[]).unwrap();
    assert!(s.looks.snippets.is_empty());
    assert!(
        s.warnings
            .iter()
            .any(|w| w.contains("snippets must be a [snippets] table")),
        "{:?}",
        s.warnings
    );
}
