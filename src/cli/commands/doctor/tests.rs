use super::*;

#[test]
fn terminal_checks_name_a_fix_for_each_problem() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    };
    let good = terminal_checks(
        &env(&[("TERM", "xterm-256color"), ("LANG", "en_US.UTF-8")]),
        true,
        Some((120, 40)),
    );
    assert!(good.iter().all(|c| c.verdict == Verdict::Ok), "{good:?}");
    let bad = terminal_checks(&env(&[("TERM", "dumb"), ("LANG", "C")]), true, Some((40, 10)));
    assert_eq!(bad.iter().filter(|c| c.verdict == Verdict::Warn).count(), 3, "{bad:?}");
    assert!(bad.iter().all(|c| c.text.contains("fix:")), "{bad:?}");
}

#[test]
fn clock_skew_from_the_date_header() {
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T15:00:00Z")
        .unwrap()
        .to_utc();
    assert_eq!(clock(Some("Sun, 22 Nov 2026 15:00:05 GMT"), now).verdict, Verdict::Ok);
    let c = clock(Some("Sun, 22 Nov 2026 14:55:00 GMT"), now);
    assert_eq!(c.verdict, Verdict::Warn);
    assert!(c.text.contains("300s ahead"), "{}", c.text);
    assert_eq!(clock(None, now).verdict, Verdict::Warn);
}

#[test]
fn the_index_line_reads_the_file_without_changing_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frontdesk/index.sqlite");
    let missing = index_file_check(&path);
    assert_eq!(missing.verdict, Verdict::Ok);
    assert!(missing.text.contains("none yet"), "{}", missing.text);

    drop(crate::index::Index::open(&path).unwrap());
    let good = index_file_check(&path);
    assert_eq!(good.verdict, Verdict::Ok, "{}", good.text);
    assert!(good.text.contains("0 contacts"), "{}", good.text);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let open = index_file_check(&path);
        assert_eq!(open.verdict, Verdict::Warn);
        assert!(open.text.contains("chmod 600"), "{}", open.text);
    }

    std::fs::write(&path, b"not a database at all, just text that is long enough").unwrap();
    let bad = index_file_check(&path);
    assert_eq!(bad.verdict, Verdict::Fail, "{}", bad.text);
    assert!(bad.text.contains("frontdesk cache clear"), "{}", bad.text);
    assert!(path.exists(), "doctor moved nothing aside");
}

#[test]
fn the_index_line_reports_pages_damaged_in_the_middle_of_the_file() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frontdesk/index.sqlite");
    {
        let mut ix = crate::index::Index::open(&path).unwrap().index;
        let contacts: Vec<crate::api::Contact> = (0..3000)
            .map(|i| crate::api::Contact {
                uuid: format!("u{i:05}"),
                name: format!("Person {i} with a name long enough to fill pages"),
                phone_number: format!("+44 7700 9{i:05}"),
                ..Default::default()
            })
            .collect();
        ix.upsert_contacts(&contacts, chrono::Utc::now()).unwrap();
    }
    assert_eq!(index_file_check(&path).verdict, Verdict::Ok);
    let len = std::fs::metadata(&path).unwrap().len();
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.seek(SeekFrom::Start(len / 2 / 4096 * 4096)).unwrap();
    f.write_all(&[0xa5; 4096 * 8]).unwrap();
    drop(f);
    let bad = index_file_check(&path);
    assert_eq!(bad.verdict, Verdict::Fail, "{}", bad.text);
    assert!(
        bad.text.contains("damaged") && bad.text.contains("frontdesk cache clear"),
        "{}",
        bad.text
    );
}

#[cfg(unix)]
#[test]
fn the_index_line_reports_a_directory_others_can_write_to() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frontdesk/index.sqlite");
    drop(crate::index::Index::open(&path).unwrap());
    std::fs::set_permissions(path.parent().unwrap(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bad = index_file_check(&path);
    assert_eq!(bad.verdict, Verdict::Fail, "{}", bad.text);
    assert!(bad.text.contains("chmod 700"), "{}", bad.text);
}
