use super::*;
use crate::config::{GlobalArgs, load_from};

fn profile(name: &str) -> NewProfile {
    NewProfile {
        profile: name.into(),
        base_url: "https://api.example.com/v1".into(),
        api_key: "k\"ey".into(),
        user_uuid: Some("u-1".into()),
        user_email: Some("me@example.com".into()),
    }
}

#[test]
fn a_written_file_loads_back_private() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["default", "work"] {
        let path = dir.path().join(format!("{name}/config.toml"));
        write(&path, &render(&profile(name)), false).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let args = GlobalArgs {
            config: Some(path.clone()),
            ..Default::default()
        };
        let s = load_from(&args, &|_| None, None).unwrap();
        assert_eq!(s.profile, name);
        assert_eq!(s.api_key.as_ref().map(|k| k.expose()), Some("k\"ey"));
        assert_eq!(s.base_url.as_deref(), Some("https://api.example.com/v1"));
        assert_eq!(s.user_uuid.as_deref(), Some("u-1"));
        assert_eq!(s.user_email.as_deref(), Some("me@example.com"));
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        let e = write(&path, "x", false).unwrap_err();
        assert!(e.contains("--force"), "{e}");
        write(&path, "bell = true\n", true).unwrap();
    }
}

#[test]
fn debug_hides_the_key() {
    assert!(!format!("{:?}", profile("default")).contains("k\\\"ey"));
}

#[test]
fn the_template_explains_the_index_settings_and_they_load_uncommented() {
    let text = render(&profile("default"));
    for key in ["# cache = true", "# sync_rate = 5", "# full_sync_minutes = 30"] {
        assert!(text.contains(key), "{key} in:\n{text}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let uncommented = text
        .replace("# cache = true", "cache = false")
        .replace("# sync_rate = 5", "sync_rate = 3")
        .replace("# full_sync_minutes = 30", "full_sync_minutes = 45");
    write(&path, &uncommented, false).unwrap();
    let args = GlobalArgs {
        config: Some(path),
        ..Default::default()
    };
    let s = load_from(&args, &|_| None, None).unwrap();
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(
        (s.cache, s.sync_rate, s.full_sync_interval.as_secs()),
        (false, 3.0, 45 * 60)
    );
}

#[test]
fn any_profile_name_init_writes_parses_back_to_the_same_profile() {
    let dir = tempfile::tempdir().unwrap();
    for (i, name) in [
        "work",
        "a.b",
        "with space",
        "quo\"te",
        "it's",
        "br]ack[et",
        "new\nline",
        "tab\there",
        "back\\slash",
        "\u{1b}]2;pwned\u{7}",
        "'''",
        "\"\"\"",
        "émile 👍",
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.path().join(format!("{i}/config.toml"));
        write(&path, &render(&profile(name)), false).unwrap_or_else(|e| panic!("{name:?}: {e}"));
        let args = GlobalArgs {
            config: Some(path.clone()),
            ..Default::default()
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let s = load_from(&args, &|_| None, None).unwrap_or_else(|e| panic!("{name:?}: {e}\n{text}"));
        assert_eq!(s.profile, name, "{text}");
        assert_eq!(s.base_url.as_deref(), Some("https://api.example.com/v1"), "{text}");
        assert!(s.warnings.is_empty(), "{name:?}: {:?}", s.warnings);
    }
}
