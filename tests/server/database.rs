//! `--db` files: owner-only, no key in clear, damaged or foreign files
//! refused at start, two servers on one file both write.

use std::os::unix::fs::PermissionsExt;

use super::*;

fn file_cfg(db: &std::path::Path) -> ServerConfig {
    ServerConfig {
        db: Some(db.to_path_buf()),
        contacts: 30,
        ..Default::default()
    }
}

async fn start_err(cfg: ServerConfig) -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    match start(l, cfg).await {
        Ok(s) => {
            s.stop().await;
            panic!("the server started");
        }
        Err(e) => e.to_string(),
    }
}

#[tokio::test]
async fn the_file_is_owner_only_and_holds_only_a_hash_of_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fd.sqlite");
    let srv = spawn(ServerConfig {
        api_key: Some("a-secret-operator-key-1234".into()),
        ..file_cfg(&db)
    })
    .await;
    srv.ok("/plan").await;
    let mode = std::fs::metadata(&db).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    srv.s.stop().await;
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        bytes.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let needle = b"a-secret-operator-key-1234";
    assert!(
        !bytes.windows(needle.len()).any(|w| w == needle),
        "the key is stored in clear"
    );
}

#[tokio::test]
async fn a_damaged_file_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fd.sqlite");
    let srv = spawn(file_cfg(&db)).await;
    srv.s.stop().await;
    for side in ["fd.sqlite-wal", "fd.sqlite-shm"] {
        let _ = std::fs::remove_file(dir.path().join(side));
    }
    // Keep the header page, trash every page after it.
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 8192);
    for (i, b) in bytes[4096..].iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    std::fs::write(&db, &bytes).unwrap();
    let err = start_err(file_cfg(&db)).await;
    assert!(err.contains("damaged"), "{err}");
}

#[tokio::test]
async fn an_unrelated_sqlite_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("other.sqlite");
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('mine');",
        )
        .unwrap();
    }
    let err = start_err(file_cfg(&db)).await;
    assert!(err.contains("not a frontdesk database"), "{err}");
    let c = rusqlite::Connection::open(&db).unwrap();
    let tables: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(tables, ["notes"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_on_one_file_both_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fd.sqlite");
    let a = spawn(file_cfg(&db)).await;
    let b = spawn(file_cfg(&db)).await;
    let uuids = uuids(&a.walk("").await);
    let mut tasks = Vec::new();
    for i in 0..300 {
        let raw = if i % 2 == 0 { a.raw.clone() } else { b.raw.clone() };
        let uuid = uuids[i % uuids.len()].clone();
        tasks.push(tokio::spawn(async move {
            let note = json!({ "note": format!("write {i}") });
            raw.call(Method::PATCH, &format!("/contacts/{uuid}"), Some(note)).await
        }));
    }
    let mut failed = Vec::new();
    for t in tasks {
        let (st, v) = t.await.unwrap();
        if st != StatusCode::OK {
            failed.push((st, v));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of 300 writes failed: {:?}",
        failed.len(),
        failed.first()
    );
    a.s.stop().await;
    b.s.stop().await;
}
