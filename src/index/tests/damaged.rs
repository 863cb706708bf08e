//! Files that cannot be trusted: damaged pages in the middle of the file,
//! and directories others could tamper with.

use std::io::{Seek, SeekFrom, Write};

use super::*;

/// A file index of `n` contacts with a page of messages each: many pages.
fn big_index(path: &std::path::Path, n: usize) {
    let mut ix = Index::open(path).unwrap().index;
    let contacts: Vec<Contact> = (0..n)
        .map(|i| {
            contact(
                &format!("u{i:05}"),
                &format!("Person {i} Somebody"),
                "+44 7700 900123",
                i as i64,
            )
        })
        .collect();
    ix.upsert_contacts(&contacts, at(0)).unwrap();
    let threads: Vec<store::Thread> = contacts
        .iter()
        .map(|c| {
            (
                c.uuid.clone(),
                Some(at(1)),
                vec![message(&format!("hello {} about order {}", c.name, c.uuid))],
            )
        })
        .collect();
    ix.store_threads(&threads).unwrap();
}

/// Overwrites whole pages in the middle of the file, its header intact.
fn damage_middle(path: &std::path::Path) {
    let len = std::fs::metadata(path).unwrap().len();
    assert!(len > 64 * 4096, "the index spans many pages: {len} bytes");
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let middle = (len / 2) / 4096 * 4096;
    f.seek(SeekFrom::Start(middle)).unwrap();
    f.write_all(&vec![0xa5; 4096 * 8]).unwrap();
}

#[test]
fn pages_damaged_in_the_middle_of_the_file_are_noticed_moved_aside_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    big_index(&path, 3000);
    damage_middle(&path);

    let opened = Index::open(&path).unwrap();
    let warning = opened.warning.expect("the damage is reported");
    assert!(
        warning.contains("damaged") && warning.contains(".corrupt-"),
        "{warning}"
    );
    assert!(!warning.contains('\n'), "one line: {warning}");
    let mut ix = opened.index;
    assert_eq!(ix.count().unwrap(), 0, "a new index");
    ix.upsert_contacts(&[contact("a", "Ada", "+1", 1)], at(0)).unwrap();
    assert_eq!(uuids(ix.search("ada", 5).unwrap()), ["a"], "and usable");
    let aside = aside_files(dir.path());
    assert_eq!(aside.len(), 1, "{aside:?}");
    #[cfg(unix)]
    assert_eq!(mode(&dir.path().join(&aside[0])), 0o600);
}

#[test]
fn inspect_reports_a_damaged_file_as_unusable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ix.sqlite");
    big_index(&path, 3000);
    assert!(matches!(inspect(&path), Health::Usable { contacts: 3000 }));
    damage_middle(&path);
    match inspect(&path) {
        Health::Unusable(why) => assert!(why.contains("damaged"), "{why}"),
        Health::Usable { .. } => panic!("a damaged file is reported usable"),
        Health::Missing => panic!("missing"),
    }
}

#[cfg(unix)]
#[test]
fn a_directory_others_can_write_to_is_refused_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("frontdesk");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = Index::open(&shared.join("ix.sqlite")).unwrap_err().to_string();
    assert!(err.contains("writable by others") && err.contains("chmod 700"), "{err}");
    assert!(!shared.join("ix.sqlite").exists(), "nothing written there");
}

#[cfg(unix)]
#[test]
fn a_symlinked_or_foreign_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("elsewhere");
    std::fs::create_dir(&real).unwrap();
    let link = dir.path().join("frontdesk");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let err = Index::open(&link.join("ix.sqlite")).unwrap_err().to_string();
    assert!(err.contains("symlink") && err.contains("rm "), "{err}");
    assert!(!real.join("ix.sqlite").exists());

    // Another user's directory (only root can make one to test with).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let theirs = dir.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        std::os::unix::fs::chown(&theirs, Some(4242), None).unwrap();
        let err = Index::open(&theirs.join("ix.sqlite")).unwrap_err().to_string();
        assert!(err.contains("another user"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn the_index_directory_and_file_are_private_from_the_start() {
    // A permissive umask: modes must come from creation, not from it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache/frontdesk/ix.sqlite");
    drop(Index::open(&path).unwrap());
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn a_big_file_is_checked_at_open_once_a_day_a_small_one_always() {
    let now = at(100_000);
    let hour = chrono::TimeDelta::hours(1);
    let (small, big) = (1 << 20, 300 << 20);
    assert!(open::check_due(small, Some(now - hour), now));
    assert!(open::check_due(big, None, now), "never checked");
    assert!(!open::check_due(big, Some(now - hour), now));
    assert!(open::check_due(big, Some(now - hour * 25), now));
    assert!(open::check_due(big, Some(now + hour), now), "a clock set back");
}
