//! `contacts list --all --jsonl` over 100,000 contacts.
//!
//! The embedded server is started in-process once; each iteration runs the
//! CLI's own code path (`frontdesk::cli::run_to`: argument parsing, the cursor
//! walk through the client, JSON encoding, per-page flush) writing into
//! `std::io::sink()`. No process is spawned, so this measures our code plus
//! the server answering on loopback, not process start-up.

use std::time::Duration;

use clap::Parser;
use criterion::{Criterion, criterion_group, criterion_main};
use frontdesk::cli::Cli;
use frontdesk::server::{ServerConfig, start};

const CONTACTS: usize = 100_000;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let server = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        start(
            listener,
            ServerConfig {
                contacts: CONTACTS,
                ..Default::default()
            },
        )
        .await
        .expect("server starts")
    });
    // An empty config file of our own: no real config is read, nothing warned.
    let dir = tempfile::tempdir().expect("temp dir");
    let no_config = dir.path().join("config.toml");
    std::fs::write(&no_config, "").expect("config file");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&no_config, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    let args = [
        "frontdesk",
        "contacts",
        "list",
        "--all",
        "--jsonl",
        "--base-url",
        &server.base_url,
        "--api-key",
        &server.api_key,
        "--config",
        no_config.to_str().expect("utf-8 path"),
    ];

    let mut group = c.benchmark_group("cli_jsonl");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("contacts_list_all_jsonl_100k", |b| {
        b.iter(|| {
            let cli = Cli::try_parse_from(args).expect("arguments parse");
            let command = cli.command.expect("a command");
            let mut out = std::io::sink();
            let mut err = std::io::stderr();
            let code = rt.block_on(frontdesk::cli::run_to(
                cli.global, cli.output, command, &mut out, &mut err, false, false,
            ));
            assert_eq!(code, 0);
        })
    });
    group.finish();
    rt.block_on(server.stop());
}

criterion_group!(benches, bench);
criterion_main!(benches);
