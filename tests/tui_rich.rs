//! Issue 35 in the TUI against the embedded server (127.0.0.1:0): only
//! active channels are offered.

mod common;

use frontdesk::tui::account::{AccountEffect, AccountMsg, perform};

#[tokio::test]
async fn the_channels_offered_are_the_active_ones() {
    let server = common::spawn(common::config(5, 3)).await;
    let client = frontdesk::api::Client::new(&server.base_url, &server.api_key, std::time::Duration::from_secs(10))
        .expect("client");
    let all = frontdesk::api::collect_pages(client.walk_channels(None))
        .await
        .expect("channels");
    assert!(
        all.iter().any(|c| c.title == "Old number"),
        "the seeded account has an inactive channel"
    );
    let AccountMsg::Channels { result, .. } = perform(client, AccountEffect::FetchChannels { id: 1 }).await else {
        panic!("a channel list");
    };
    let offered = result.expect("channels");
    assert!(!offered.is_empty());
    assert!(
        offered.iter().all(|c| c.title != "Old number"),
        "an inactive channel is not offered: {offered:?}"
    );
}
