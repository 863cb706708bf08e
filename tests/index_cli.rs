//! `frontdesk sync`, `contacts search`, `cache path|clear` against the embedded
//! server, with the cache directory in a temporary place.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use frontdesk::server::RunningServer;
use serde_json::Value;

mod common;

struct Env {
    server: RunningServer,
    home: tempfile::TempDir,
}

fn env(contacts: usize) -> Env {
    Env {
        server: common::spawn_blocking(common::config(contacts, 9)),
        home: tempfile::tempdir().unwrap(),
    }
}

impl Env {
    fn fd(&self) -> Command {
        self.fd_with_config("")
    }

    /// The command with `config` as the config file's text.
    fn fd_with_config(&self, config_text: &str) -> Command {
        let mut c = Command::cargo_bin("frontdesk").unwrap();
        for var in [
            "FRONTDESK_PROFILE",
            "FRONTDESK_USER_UUID",
            "FRONTDESK_CONFIG",
            "NO_COLOR",
        ] {
            c.env_remove(var);
        }
        let config = self.home.path().join("config.toml");
        std::fs::write(&config, config_text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        c.env("FRONTDESK_BASE_URL", &self.server.base_url)
            .env("FRONTDESK_API_KEY", &self.server.api_key)
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("HOME", self.home.path())
            .arg("--config")
            .arg(config);
        c
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let o = self.fd().args(args).output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    fn cache_path(&self) -> PathBuf {
        let (code, out, err) = self.run(&["cache", "path"]);
        assert_eq!(code, 0, "{err}");
        PathBuf::from(out.trim_end())
    }

    /// The first contact of the server's own list.
    fn a_contact(&self) -> Value {
        let raw = common::Raw::new(&self.server);
        let v = common::runtime().block_on(raw.ok("/contacts"));
        v["contacts"][3].clone()
    }
}

fn uuids(json: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(json).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c["uuid"].as_str().unwrap().to_string())
        .collect()
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn sync_fills_a_private_index_in_the_cache_directory_without_the_key() {
    let e = env(90);
    let path = e.cache_path();
    assert!(
        path.starts_with(e.home.path().join("cache/frontdesk")),
        "{}",
        path.display()
    );
    assert!(!path.exists(), "`cache path` creates nothing");
    let (code, out, err) = e.run(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("synced 90 contacts"), "{out}");
    #[cfg(unix)]
    {
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
    }
    let bytes = std::fs::read(&path).unwrap();
    let key = e.server.api_key.as_bytes();
    assert!(!bytes.windows(key.len()).any(|w| w == key), "the key is not stored");
    assert!(!path.to_string_lossy().contains(&e.server.api_key));
}

#[test]
fn search_finds_a_contact_by_name_and_by_phone_digits() {
    let e = env(80);
    let c = e.a_contact();
    let uuid = c["uuid"].as_str().unwrap();
    let name = c["name"].as_str().unwrap();
    let (code, out, err) = e.run(&["contacts", "search", name, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(uuids(&out).contains(&uuid.to_string()), "{name}: {out}");
    // No full sync had run: the search built the index.
    assert!(e.cache_path().exists());
    let digits: String = c["phoneNumber"]
        .as_str()
        .unwrap()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let (code, out, err) = e.run(&["contacts", "search", &digits[..digits.len() - 1], "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(uuids(&out), [uuid.to_string()]);
    let (code, out, _) = e.run(&["contacts", "search", "zzqqxxnothing", "--jsonl"]);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn the_old_top_level_search_still_answers_and_a_table_is_the_default() {
    let e = env(25);
    let c = e.a_contact();
    let name = c["name"].as_str().unwrap();
    let (code, out, err) = e.run(&["search", name, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(uuids(&out).contains(&c["uuid"].as_str().unwrap().to_string()), "{out}");
    let (code, out, err) = e.run(&["contacts", "search", name, "--limit", "1"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "a header and one row:\n{out}");
    assert!(
        lines[0].contains("NAME") && lines[1].contains(c["uuid"].as_str().unwrap()),
        "{out}"
    );
}

#[test]
fn search_with_no_cache_writes_nothing() {
    let e = env(30);
    let c = e.a_contact();
    let (code, out, err) = e.run(&[
        "contacts",
        "search",
        c["name"].as_str().unwrap(),
        "--no-cache",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(uuids(&out).contains(&c["uuid"].as_str().unwrap().to_string()));
    assert!(!e.home.path().join("cache/frontdesk").exists());
}

#[test]
fn search_text_without_words_is_a_usage_error_and_fts_syntax_is_literal() {
    let e = env(20);
    let (code, _, err) = e.run(&["contacts", "search", "\"(*"]);
    assert_eq!(code, 2);
    assert!(err.contains("no letter or digit"), "{err}");
    let (code, _, err) = e.run(&["contacts", "search", "NEAR(\"a", "--no-cache"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn cache_clear_deletes_the_index() {
    let e = env(20);
    assert_eq!(e.run(&["sync"]).0, 0);
    let path = e.cache_path();
    assert!(path.exists());
    let (code, out, _) = e.run(&["cache", "clear"]);
    assert_eq!(code, 0);
    assert!(out.contains("deleted the local index"), "{out}");
    assert!(!path.exists());
    let (_, out, _) = e.run(&["cache", "clear"]);
    assert!(out.contains("there was no local index"), "{out}");
}

#[test]
fn cache_clear_also_deletes_the_copies_moved_aside() {
    let e = env(20);
    let path = e.cache_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"this is not a database, not even close; padding padding").unwrap();
    assert_eq!(e.run(&["sync"]).0, 0, "moves the bad file aside");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let ours = || -> Vec<String> {
        std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .filter(|f| f.starts_with(&name))
            .collect()
    };
    assert!(ours().iter().any(|f| f.contains(".corrupt-")), "{:?}", ours());
    let (code, out, err) = e.run(&["cache", "clear"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("deleted the local index"), "{out}");
    assert!(ours().is_empty(), "left behind: {:?}", ours());
}

#[test]
fn a_corrupt_index_is_moved_aside_with_one_line_and_the_sync_goes_on() {
    let e = env(20);
    let path = e.cache_path();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        b"this is not a database, not even close; padding padding padding",
    )
    .unwrap();
    let (code, out, err) = e.run(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("synced 20 contacts"));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("warning") && err.contains("corrupt") && err.contains(".corrupt-"),
        "{err}"
    );
}

#[test]
fn a_server_reset_to_other_data_leaves_no_ghost_in_search_and_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.sqlite");
    let e = Env {
        server: common::spawn_blocking(frontdesk::server::ServerConfig {
            db: Some(db.clone()),
            ..common::config(25, 9)
        }),
        home: tempfile::tempdir().unwrap(),
    };
    assert_eq!(e.run(&["sync"]).0, 0);
    let c = e.a_contact();
    let (name, uuid) = (c["name"].as_str().unwrap(), c["uuid"].as_str().unwrap().to_string());
    let (_, out, _) = e.run(&["contacts", "search", name, "--json"]);
    assert!(uuids(&out).contains(&uuid), "{out}");

    // The server is reset to other data (its contacts gone, its teams new)
    // behind the same URL and key.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("DELETE FROM contacts; UPDATE teams SET uuid = lower(hex(randomblob(16)));")
        .unwrap();
    let (code, out, err) = e.run(&["contacts", "search", name, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!uuids(&out).contains(&uuid), "a ghost of the old data: {out}");
    assert_eq!(err.lines().count(), 1, "one line:\n{err}");
    assert!(err.contains("started over"), "{err}");
    let (_, _, err) = e.run(&["contacts", "search", name, "--json"]);
    assert!(err.is_empty(), "said once: {err}");
}

#[test]
fn a_locked_index_file_falls_back_to_memory_and_search_still_answers() {
    let e = env(30);
    assert_eq!(e.run(&["sync"]).0, 0);
    let path = e.cache_path();
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let c = e.a_contact();
    let (code, out, err) = e.run(&["contacts", "search", c["name"].as_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(uuids(&out).contains(&c["uuid"].as_str().unwrap().to_string()), "{out}");
    assert_eq!(err.lines().count(), 1, "one line:\n{err}");
    assert!(
        err.contains("warning") && err.contains("busy") && err.contains("in memory"),
        "{err}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
}

#[test]
fn config_check_shows_the_index_settings_and_where_they_came_from() {
    let e = env(1);
    let run = |config: &str, args: &[&str]| {
        let o = e.fd_with_config(config).args(args).output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, out, err) = run("", &["config", "check"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cache         true  (default)"), "{out}");
    assert!(out.contains("sync_rate     5 per second  (default)"), "{out}");
    assert!(out.contains("full_sync_minutes 30  (default)"), "{out}");
    let (code, out, err) = run(
        "cache = false\nsync_rate = 0\nfull_sync_minutes = 90\n",
        &["config", "check"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("cache         false  (file)"), "{out}");
    assert!(out.contains("sync_rate     0 (no limit)  (file)"), "{out}");
    assert!(out.contains("full_sync_minutes 90  (file)"), "{out}");
    let (_, out, _) = run("", &["config", "check", "--no-cache", "--sync-rate", "2"]);
    assert!(out.contains("cache         false  (flag)"), "{out}");
    assert!(out.contains("sync_rate     2 per second  (flag)"), "{out}");
    let (code, _, err) = run("full_sync_minutes = 0\n", &["config", "check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("full_sync_minutes must be at least 1"), "{err}");
    let (code, _, err) = run("sync_rate = nan\n", &["contacts", "search", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("config.toml: sync_rate"), "{err}");
    let (code, _, err) = run("", &["contacts", "search", "x", "--sync-rate=-1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("requests per second"), "{err}");
}

#[test]
fn cache_false_in_the_file_writes_nothing() {
    let e = env(15);
    let c = e.a_contact();
    let o = e
        .fd_with_config("cache = false\n")
        .args(["contacts", "search", c["name"].as_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(uuids(&String::from_utf8_lossy(&o.stdout)).contains(&c["uuid"].as_str().unwrap().to_string()));
    assert!(!e.home.path().join("cache/frontdesk").exists());
}
