//! Slow clients: a connection that never finishes its headers is cut off,
//! and while many such connections are open a normal request still gets
//! its answer (connections beyond the cap wait in the accept queue).

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_header_connections_are_cut_off_and_others_still_served() {
    let srv = spawn(ServerConfig {
        contacts: 5,
        header_timeout: Duration::from_millis(500),
        max_connections: 8,
        ..Default::default()
    })
    .await;
    let addr = srv
        .s
        .base_url
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_string();
    let mut slow = Vec::new();
    for _ in 0..40 {
        let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"GET /v1/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bea")
            .await
            .unwrap();
        slow.push(s);
    }
    // A normal client gets its answer while they hang.
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let resp = client
        .get(format!("{}/plan", srv.s.base_url))
        .bearer_auth(&srv.s.api_key)
        .send()
        .await
        .expect("a normal request is answered while slow clients hang");
    assert_eq!(resp.status(), StatusCode::OK);
    // Every slow connection is closed by the server, not kept forever.
    for mut s in slow {
        let mut buf = [0u8; 1024];
        let closed = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "a half-header connection was kept open");
    }
    srv.s.stop().await;
}

#[tokio::test]
async fn a_request_past_the_deadline_answers_503() {
    let srv = spawn(ServerConfig {
        contacts: 5,
        latency_ms: 3_000,
        request_timeout: Duration::from_millis(200),
        ..Default::default()
    })
    .await;
    let (st, v) = srv.get("/plan").await;
    assert_eq!(st, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().is_some_and(|m| m.contains("longer than")), "{v}");
    srv.s.stop().await;
}
