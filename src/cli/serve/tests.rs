use clap::Parser;

use super::*;

#[derive(Parser)]
struct Wrap {
    #[command(flatten)]
    serve: ServeArgs,
}

#[test]
fn the_key_stays_out_of_debug_output() {
    let w = Wrap::parse_from(["serve", "--api-key", "s3cret-key-value", "--contacts", "7"]);
    let opts = w.serve.options();
    assert_eq!(opts.config.api_key.as_deref(), Some("s3cret-key-value"));
    assert_eq!(opts.config.contacts, 7);
    for text in [format!("{:?}", w.serve), format!("{opts:?}")] {
        assert!(!text.contains("s3cret-key-value"), "{text}");
        assert!(text.contains("<redacted>"), "{text}");
    }
}

#[test]
fn the_race_knobs_reach_the_server_config() {
    let w = Wrap::parse_from([
        "serve",
        "--apply-then-fail",
        "0.3",
        "--hold-ms",
        "250",
        "--hold-path",
        "/contacts/*",
    ]);
    let knobs = w.serve.options().config.knobs;
    assert_eq!(knobs.apply_then_fail, 0.3);
    assert_eq!((knobs.hold_ms, knobs.hold_path.as_deref()), (250, Some("/contacts/*")));
}

#[test]
fn deliveries_are_unsigned_unless_signing_is_asked_for() {
    let mut w = Wrap::parse_from(["serve", "--drop-webhooks", "0.2"]);
    w.serve.webhook_secret = Some("whsec-hidden-42".into());
    let opts = w.serve.options();
    assert!(!opts.sign_webhooks);
    assert_eq!(
        opts.config.webhook_secret, None,
        "a secret in the environment alone signs nothing"
    );
    assert_eq!(opts.config.drop_webhooks, 0.2);

    let mut w = Wrap::parse_from(["serve", "--sign-webhooks"]);
    w.serve.webhook_secret = Some("whsec-hidden-42".into());
    let opts = w.serve.options();
    assert!(opts.sign_webhooks);
    assert_eq!(opts.config.webhook_secret.as_deref(), Some("whsec-hidden-42"));
    for text in [format!("{:?}", w.serve), format!("{opts:?}")] {
        assert!(!text.contains("whsec-hidden-42"), "{text}");
    }
}

#[test]
fn paging_and_check_interval_reach_the_server_config() {
    let w = Wrap::parse_from(["serve"]);
    assert_eq!(w.serve.options().config.paging, crate::server::Paging::Reference);
    let w = Wrap::parse_from(["serve", "--paging", "docs", "--webhook-check-secs", "7"]);
    let config = w.serve.options().config;
    assert_eq!(config.paging, crate::server::Paging::Docs);
    assert_eq!(config.webhook_check_interval, Duration::from_secs(7));
    assert!(Wrap::try_parse_from(["serve", "--paging", "cursor"]).is_err());
}
