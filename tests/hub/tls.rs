//! The hub over TLS (`--tls-cert`, `--tls-key`).

use std::path::PathBuf;
use std::process::{Command, Stdio};

use frontdesk::hub::{HubListener, tls};
use reqwest::StatusCode;

use super::support;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hub_tls")
        .join(name)
}

fn trusting_client() -> reqwest::Client {
    let ca = std::fs::read(fixture("ca.pem")).expect("ca");
    reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(&ca).expect("pem"))
        .build()
        .expect("client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_reach_the_hub_over_tls() {
    let server = super::common::spawn(support::server_config()).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let token = support::add_agent(dir.path(), "dana");
    let config = tls::config(&fixture("cert.pem"), &fixture("key.pem")).expect("tls config");
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let hub = frontdesk::hub::start(HubListener::Tls(l, config), support::config(dir.path(), &server))
        .await
        .expect("hub");
    assert!(hub.url.starts_with("https://127.0.0.1:"), "{}", hub.url);
    let resp = trusting_client()
        .get(format!("{}/hub/v1/whoami", hub.url))
        .bearer_auth(&token)
        .send()
        .await
        .expect("a TLS answer");
    assert_eq!(resp.status(), StatusCode::OK);
    let plain = hub.url.replace("https://", "http://");
    let refused = reqwest::get(format!("{plain}/hub/v1/whoami")).await;
    assert!(
        refused.is_err() || !refused.is_ok_and(|r| r.status().is_success()),
        "no plain http on a TLS hub"
    );
    hub.stop().await;
}

#[test]
fn the_hub_process_serves_tls_and_says_clearly_when_the_key_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config.toml");
    let _ = frontdesk::index::private::file_options()
        .write(true)
        .create(true)
        .open(&config);
    let base = |c: &mut Command| {
        c.env_remove("FRONTDESK_API_KEY")
            .env("FRONTDESK_CONFIG", &config)
            .env("FRONTDESK_HUB_DATA_DIR", dir.path().join("hub"))
            .args([
                "hub",
                "--api-key",
                "k",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--no-subscribe",
            ])
            .args(["--addr", "127.0.0.1:0"]);
    };
    let mut bad = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    base(&mut bad);
    let out = bad
        .arg("--tls-cert")
        .arg(fixture("cert.pem"))
        .arg("--tls-key")
        .arg(fixture("ca.pem"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("private key"), "{err}");
    let manifest = dir.path().join("hub.json");
    let mut good = Command::new(env!("CARGO_BIN_EXE_frontdesk"));
    base(&mut good);
    let child = good
        .arg("--tls-cert")
        .arg(fixture("cert.pem"))
        .arg("--tls-key")
        .arg(fixture("key.pem"))
        .arg("--manifest")
        .arg(&manifest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hub starts");
    let mut child = super::process::Killed(child);
    let m = super::process::manifest(&manifest, &mut child.0);
    let url = m["url"].as_str().expect("url").to_string();
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");
    let status = super::common::runtime().block_on(async {
        trusting_client()
            .get(format!("{url}/hub/v1/whoami"))
            .send()
            .await
            .expect("answer")
            .status()
    });
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
