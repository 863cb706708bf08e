//! The local index's settings: cache, sync_rate, full_sync_minutes.

use super::*;
use crate::config::settings::parse_rate;

#[test]
fn the_local_index_is_on_disk_unless_the_file_or_no_cache_says_otherwise() {
    let f = Fixture::new();
    let plain = f.file("", 0o600);
    let s = load_with(&args(&plain), &[]).unwrap();
    assert!(s.cache, "on by default");
    assert_eq!(s.source("cache"), Source::Default);
    let off = f.file("cache = false\n", 0o600);
    let s = load_with(&args(&off), &[]).unwrap();
    assert!(!s.cache);
    assert_eq!(s.source("cache"), Source::File);
    let flag = GlobalArgs {
        no_cache: true,
        ..args(&plain)
    };
    let s = load_with(&flag, &[]).unwrap();
    assert!(!s.cache, "--no-cache");
    assert_eq!(s.source("cache"), Source::Flag);
}

#[test]
fn sync_rate_comes_from_the_flag_then_the_file_and_must_be_a_rate() {
    let f = Fixture::new();
    let plain = f.file("", 0o600);
    let s = load_with(&args(&plain), &[]).unwrap();
    assert_eq!(s.sync_rate, crate::index::sync::DEFAULT_SYNC_RATE);
    let file = f.file("sync_rate = 2.5\n", 0o600);
    assert_eq!(load_with(&args(&file), &[]).unwrap().sync_rate, 2.5);
    let whole = f.file("sync_rate = 0\n", 0o600);
    assert_eq!(load_with(&args(&whole), &[]).unwrap().sync_rate, 0.0, "0: no limit");
    let flag = GlobalArgs {
        sync_rate: Some(2.0),
        ..args(&file)
    };
    let s = load_with(&flag, &[]).unwrap();
    assert_eq!((s.sync_rate, s.source("sync_rate")), (2.0, Source::Flag));
    for bad in ["sync_rate = -1\n", "sync_rate = nan\n", "sync_rate = -inf\n"] {
        let path = f.file(bad, 0o600);
        let e = load_with(&args(&path), &[]).unwrap_err().0;
        assert!(
            e.contains(&path.display().to_string()) && e.contains("sync_rate"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn sync_rate_flag_parses_a_rate_and_refuses_anything_else() {
    assert_eq!(parse_rate("2"), Ok(2.0));
    assert_eq!(parse_rate(" 0.5 "), Ok(0.5));
    for bad in ["-1", "NaN", "inf", "fast", ""] {
        let e = parse_rate(bad).unwrap_err();
        assert!(e.contains("requests per second"), "{bad}: {e}");
    }
}

#[test]
fn full_sync_minutes_sets_the_interval_and_zero_is_refused() {
    let f = Fixture::new();
    let plain = f.file("", 0o600);
    assert_eq!(
        load_with(&args(&plain), &[]).unwrap().full_sync_interval,
        DEFAULT_FULL_SYNC
    );
    let ten = f.file("full_sync_minutes = 10\n", 0o600);
    let s = load_with(&args(&ten), &[]).unwrap();
    assert_eq!(s.full_sync_interval, Duration::from_secs(600));
    assert_eq!(s.source("full_sync_minutes"), Source::File);
    let zero = f.file("full_sync_minutes = 0\n", 0o600);
    let e = load_with(&args(&zero), &[]).unwrap_err().0;
    assert!(
        e.contains("full_sync_minutes must be at least 1") && e.contains(&zero.display().to_string()),
        "{e}"
    );
    let negative = f.file("full_sync_minutes = -5\n", 0o600);
    let e = load_with(&args(&negative), &[]).unwrap_err().0;
    assert!(e.contains("full_sync_minutes"), "{e}");
}

#[test]
fn the_module_doc_shows_the_index_settings() {
    let doc = include_str!("../../config.rs");
    let head: String = doc
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    for key in ["cache = ", "sync_rate = ", "full_sync_minutes = "] {
        assert!(head.contains(key), "{key} in the module doc");
    }
}
