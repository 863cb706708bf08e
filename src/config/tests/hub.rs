//! The hub settings: hub_url and hub_token, resolved as base_url and the key.

use super::*;
use std::path::Path;

const HUB_PROFILES: &str = r#"
hub_url = "https://top.example.com"
hub_token = "top-token"

[profiles.team]
hub_url = "https://hub.example.com/"
hub_token = "file-token"

[profiles.bare]
base_url = "https://api.example.com/v1"
"#;

fn team(config: &Path) -> GlobalArgs {
    GlobalArgs {
        profile: Some("team".into()),
        ..args(config)
    }
}

#[test]
fn hub_settings_come_from_flag_then_env_then_the_profile() {
    let f = Fixture::new();
    let p = f.file(HUB_PROFILES, 0o600);
    let s = load_with(&team(&p), &[]).unwrap();
    assert_eq!(s.hub_url.as_deref(), Some("https://hub.example.com/"));
    assert_eq!(s.hub_token.as_ref().map(ApiKey::expose), Some("file-token"));
    assert_eq!(
        (s.source("hub_url"), s.source("hub_token")),
        (Source::File, Source::File)
    );

    let env = [
        ("FRONTDESK_HUB_URL", "https://env-hub.example.com"),
        ("FRONTDESK_HUB_TOKEN", "env-token"),
    ];
    let s = load_with(&team(&p), &env).unwrap();
    assert_eq!(s.hub_url.as_deref(), Some("https://env-hub.example.com"));
    assert_eq!(s.hub_token.as_ref().map(ApiKey::expose), Some("env-token"));
    assert_eq!(s.source("hub_token"), Source::Env);

    let flags = GlobalArgs {
        hub_url: Some("http://127.0.0.1:7000".into()),
        hub_token: Some("flag-token".into()),
        ..team(&p)
    };
    let s = load_with(&flags, &env).unwrap();
    assert_eq!(s.hub_url.as_deref(), Some("http://127.0.0.1:7000"));
    assert_eq!(s.hub_token.as_ref().map(ApiKey::expose), Some("flag-token"));
    assert_eq!(s.source("hub_url"), Source::Flag);

    // Top-level hub keys belong to the default profile only.
    let bare = GlobalArgs {
        profile: Some("bare".into()),
        ..args(&p)
    };
    let s = load_with(&bare, &[]).unwrap();
    assert_eq!((s.hub_url, s.hub_token), (None, None));
    let s = load_with(&args(&p), &[]).unwrap();
    assert_eq!(s.hub_url.as_deref(), Some("https://top.example.com"));
}

#[test]
fn with_a_hub_commands_talk_to_its_v1_with_the_token_and_need_no_key() {
    let f = Fixture::new();
    let p = f.file(HUB_PROFILES, 0o600);
    let s = load_with(&team(&p), &[]).unwrap();
    assert!(s.api_key.is_none());
    assert!(!s.is_demo(), "a hub is a real account");
    let client = s.client().unwrap().expect("a client for the hub");
    assert_eq!(client.base_url(), "https://hub.example.com/v1");
    assert_eq!(s.hub_root().as_deref(), Some("https://hub.example.com"));
    // A URL given with /v1 means the same hub.
    let s = load_with(&team(&p), &[("FRONTDESK_HUB_URL", "https://hub.example.com/v1/")]).unwrap();
    assert_eq!(s.client().unwrap().unwrap().base_url(), "https://hub.example.com/v1");
}

#[test]
fn a_hub_over_plain_http_is_refused_off_loopback() {
    let f = Fixture::new();
    let p = f.file(HUB_PROFILES, 0o600);
    let s = load_with(&team(&p), &[("FRONTDESK_HUB_URL", "http://hub.example.com")]).unwrap();
    let e = s.client().unwrap_err().to_string();
    assert!(e.contains("plain http"), "{e}");
    assert!(!e.contains("file-token"), "{e}");
    let s = load_with(&team(&p), &[("FRONTDESK_HUB_URL", "http://localhost:7000")]).unwrap();
    assert!(s.client().is_ok());
}

#[test]
fn a_hub_url_without_a_token_or_a_token_without_a_url_is_a_clear_error() {
    let f = Fixture::new();
    let p = f.file("", 0o600);
    let e = load_with(&args(&p), &[("FRONTDESK_HUB_URL", "https://hub.example.com")]).unwrap_err();
    assert!(e.message().contains("hub_token"), "{e}");
    let e = load_with(&args(&p), &[("FRONTDESK_HUB_TOKEN", "secret-token-9")]).unwrap_err();
    assert!(e.message().contains("hub_url"), "{e}");
    assert!(!e.message().contains("secret-token-9"), "{e}");
}

#[test]
fn the_token_never_shows_in_debug_output_and_a_readable_file_is_warned_about() {
    let f = Fixture::new();
    let p = f.file(
        "hub_url = \"https://hub.example.com\"\nhub_token = \"tok-visible-0\"\n",
        0o644,
    );
    let s = load_with(&args(&p), &[]).unwrap();
    assert!(!format!("{s:?}").contains("tok-visible-0"));
    #[cfg(unix)]
    assert!(s.warnings.iter().any(|w| w.contains("chmod 600")), "{:?}", s.warnings);
    let flags = GlobalArgs {
        hub_token: Some("tok-flag-1".into()),
        ..args(&p)
    };
    assert!(!format!("{flags:?}").contains("tok-flag-1"));
}
