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
