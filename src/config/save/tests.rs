//! The config's one write path, through its users: saving a view and
//! `config init`'s write (the first-run screen's too).

use std::path::Path;
use std::sync::{Arc, Barrier};

use crate::config::init::{NewProfile, render, write};
use crate::config::{GlobalArgs, load_from, save_view};
use crate::triage::View;

fn load(path: &Path) -> crate::config::Settings {
    let args = GlobalArgs {
        config: Some(path.to_path_buf()),
        ..Default::default()
    };
    load_from(&args, &|_| None, None).unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn profile() -> NewProfile {
    NewProfile {
        profile: "default".into(),
        base_url: "https://api.example.com/v1".into(),
        api_key: "secret-key".into(),
        user_uuid: None,
        user_email: None,
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_config_stays_a_link_and_its_target_gets_the_view() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("dotfiles/frontdesk.toml");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "bell = true\n").unwrap();
    chmod(&real, 0o600);
    let link = dir.path().join("config.toml");
    // A relative link, as dotfile managers make them.
    std::os::unix::fs::symlink("dotfiles/frontdesk.toml", &link).unwrap();

    save_view(&link, &View::new("Linked", Default::default())).unwrap();

    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.contains("bell = true") && text.contains("name = \"Linked\""),
        "{text}"
    );
    assert_eq!(load(&link).views.len(), 1);

    // config init --force writes through the link too.
    write(&link, &render(&profile()), true).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("secret-key"));
}

#[cfg(unix)]
#[test]
fn a_read_only_config_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "bell = true\n").unwrap();
    chmod(&path, 0o400);

    let e = save_view(&path, &View::new("Nope", Default::default())).unwrap_err();
    assert!(
        e.to_string()
            .contains("is read-only (mode 0400): chmod u+w it or save elsewhere"),
        "{e}"
    );
    let e = write(&path, &render(&profile()), true).unwrap_err();
    assert!(e.contains("is read-only (mode 0400)"), "{e}");

    assert_eq!(std::fs::read_to_string(&path).unwrap(), "bell = true\n");
    assert_eq!(mode(&path), 0o400);
}

#[cfg(unix)]
#[test]
fn a_save_keeps_the_files_mode_and_a_new_file_is_private() {
    let dir = tempfile::tempdir().unwrap();
    for kept in [0o600, 0o640, 0o644] {
        let path = dir.path().join(format!("config-{kept:o}.toml"));
        std::fs::write(&path, "bell = true\n").unwrap();
        chmod(&path, kept);
        save_view(&path, &View::new("Kept", Default::default())).unwrap();
        assert_eq!(mode(&path), kept, "{}", path.display());
    }
    let new = dir.path().join("new/config.toml");
    save_view(&new, &View::new("New", Default::default())).unwrap();
    assert_eq!(mode(&new), 0o600);
    // A file written with a key is made private, whatever it was.
    let shared = dir.path().join("config-0644.toml");
    write(&shared, &render(&profile()), true).unwrap();
    assert_eq!(mode(&shared), 0o600);
}

#[test]
fn saves_at_the_same_time_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "# my views\n").unwrap();
    let n = 8;
    let start = Arc::new(Barrier::new(n));
    let threads: Vec<_> = (0..n)
        .map(|i| {
            let (path, start) = (path.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                for round in 0..5 {
                    save_view(&path, &View::new(&format!("View {i}-{round}"), Default::default())).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = load(&path);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let mut names: Vec<String> = s.views.iter().map(|v| v.name.clone()).collect();
    names.sort();
    let mut want: Vec<String> = (0..n)
        .flat_map(|i| (0..5).map(move |r| format!("View {i}-{r}")))
        .collect();
    want.sort();
    assert_eq!(names, want);
    assert!(std::fs::read_to_string(&path).unwrap().contains("# my views\n"));
}
