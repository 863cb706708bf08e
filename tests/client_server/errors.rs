//! Error paths through the client: a wrong key, and the server's fault
//! knobs (failures, rate limits, latency).

use std::time::{Duration, Instant};

use frontdesk::api::*;

use super::*;

#[tokio::test]
async fn a_wrong_key_is_unauthorized_everywhere() {
    let env = small(10).await;
    let wrong = env.client_with("sk_wrong_key", Duration::from_secs(5), fast_retry(3));
    let none = ContactFilter::default();
    let uuid = env
        .client
        .list_contacts(&none, &PageRequest::First)
        .await
        .unwrap()
        .items[0]
        .uuid
        .clone();
    let results = [
        wrong.list_contacts(&none, &PageRequest::First).await.map(|_| ()),
        wrong
            .get_contact(&ContactId::new(uuid.to_string()), false)
            .await
            .map(|_| ()),
        wrong
            .update_contact(
                &ContactId::new(uuid.to_string()),
                &ContactPatch {
                    note: Some("x".into()),
                    ..Default::default()
                },
            )
            .await
            .map(|_| ()),
        wrong.plan().await.map(|_| ()),
        wrong
            .delete_message(&MessageId::new("0123456789abcdef0123456789abcdef".to_string()))
            .await
            .map(|_| ()),
        wrong.list_teams(None).await.map(|_| ()),
    ];
    for r in results {
        let e = r.unwrap_err();
        assert_eq!(e, ApiError::Unauthorized);
        assert!(!e.to_string().contains("sk_wrong_key"));
    }
    assert_ne!(env.raw_contact(&uuid).await["note"], "x");
}

#[tokio::test]
async fn failures_are_retried_then_reported() {
    let env = spawn(ServerConfig {
        contacts: 5,
        fail_rate: 1.0,
        ..Default::default()
    })
    .await;
    // Reads are retried with backoff: three attempts take at least the two waits.
    let retry = RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(60),
        max_delay: Duration::from_millis(500),
    };
    let client = env.client_with(&env.srv.api_key, Duration::from_secs(5), retry);
    let t = Instant::now();
    let e = client.plan().await.unwrap_err();
    assert_eq!(
        e,
        ApiError::Server {
            status: 500,
            message: "simulated failure".into()
        }
    );
    assert!(
        t.elapsed() >= Duration::from_millis(90),
        "retried with backoff: {:?}",
        t.elapsed()
    );
    // A create is never repeated: it fails at once.
    let slow_retry = RetryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_secs(2),
        max_delay: Duration::from_secs(4),
    };
    let client = env.client_with(&env.srv.api_key, Duration::from_secs(5), slow_retry);
    let t = Instant::now();
    let e = client
        .create_contact(&NewContact {
            identifier: "+15550001111".into(),
            source: "messaging_app".into(),
            name: "Once".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    // Not retried; a 5xx to a create may still have created it.
    let ApiError::MaybeApplied { cause } = &e else {
        panic!("{e:?}")
    };
    assert!(matches!(**cause, ApiError::Server { status: 500, .. }), "{e:?}");
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "not retried: {:?}",
        t.elapsed()
    );
}

#[tokio::test]
async fn rate_limits_are_waited_out_or_reported() {
    let env = spawn(ServerConfig {
        contacts: 5,
        rate_limit: Some(2),
        ..Default::default()
    })
    .await;
    let patient = env.client_with(
        &env.srv.api_key,
        Duration::from_secs(5),
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(1500),
        },
    );
    let impatient = env.client_with(&env.srv.api_key, Duration::from_secs(5), fast_retry(1));
    // Exhaust the window, then the impatient client is told to wait...
    let mut limited = None;
    for _ in 0..4 {
        if let Err(e) = impatient.list_funnels().await {
            limited = Some(e);
            break;
        }
    }
    assert_eq!(
        limited,
        Some(ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(1))
        })
    );
    // ...and the patient one honours Retry-After and gets its answer.
    let t = Instant::now();
    let funnels = patient.list_funnels().await.unwrap();
    assert!(!funnels.is_empty());
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[tokio::test]
async fn a_slow_server_times_out() {
    let env = spawn(ServerConfig {
        contacts: 5,
        latency_ms: 800,
        ..Default::default()
    })
    .await;
    let hasty = env.client_with(&env.srv.api_key, Duration::from_millis(150), fast_retry(2));
    let t = Instant::now();
    let e = hasty.plan().await.unwrap_err();
    assert!(matches!(e, ApiError::Timeout(_)), "{e:?}");
    assert!(t.elapsed() < Duration::from_millis(750), "{:?}", t.elapsed());
    // A patient client gets the answer.
    let patient = env.client_with(&env.srv.api_key, Duration::from_secs(5), fast_retry(1));
    assert_eq!(
        patient.plan().await.unwrap().active_users,
        env.raw_ok("/plan").await["activeUsers"].as_i64().unwrap()
    );
}
