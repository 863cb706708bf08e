//! `frontdesk hub` as a process: the listening address and its rules,
//! the manifest, the webhook subscription, and the ways it ends.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::args::{HubArgs, reconcile_every};
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::sanitize;
use crate::hub::{HubConfig, HubListener, start};

/// Plain http is for loopback and Unix sockets only (the client's rule:
/// never plain http off loopback); with a certificate, any address.
pub async fn listener(
    addr: &str,
    tls: Option<std::sync::Arc<tokio_rustls::rustls::ServerConfig>>,
) -> Result<HubListener, CliError> {
    #[cfg(unix)]
    if let Some(path) = addr.strip_prefix("unix:") {
        if tls.is_some() {
            return Err(CliError::usage(
                "--tls-cert goes with a host:port address, not a Unix socket",
            ));
        }
        remove_stale_socket(Path::new(path));
        let l = tokio::net::UnixListener::bind(path)
            .map_err(|e| CliError::usage(format!("cannot listen on {}: {e}", sanitize(path))))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o660))
            .map_err(|e| CliError::usage(format!("cannot set the mode of {}: {e}", sanitize(path))))?;
        return Ok(HubListener::Unix(l));
    }
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| CliError::usage(format!("--addr {}: {e}", sanitize(addr))))?
        .collect();
    if addrs.is_empty() {
        return Err(CliError::usage(format!("--addr {} names no address", sanitize(addr))));
    }
    if tls.is_none() && !addrs.iter().all(|a| a.ip().is_loopback()) {
        return Err(CliError::usage(format!(
            "--addr {} is not a loopback address: plain http only on loopback or a Unix socket \
             (pass --tls-cert and --tls-key, see docs/hub.md)",
            sanitize(addr)
        )));
    }
    let l = tokio::net::TcpListener::bind(addrs.as_slice())
        .await
        .map_err(|e| CliError::usage(format!("cannot listen on {}: {e}", sanitize(addr))))?;
    Ok(match tls {
        Some(config) => HubListener::Tls(l, config),
        None => HubListener::Tcp(l),
    })
}

/// A socket left by a hub that was killed: nobody answers on it, so it
/// goes (a file that is not a socket, or one in use, is left alone and
/// binding says why).
#[cfg(unix)]
fn remove_stale_socket(path: &Path) {
    use std::os::unix::fs::FileTypeExt;
    let is_socket = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket());
    if is_socket && std::os::unix::net::UnixStream::connect(path).is_err() {
        let _ = std::fs::remove_file(path);
    }
}

/// The manifest: created new (never over a file or through a link),
/// 0600, removed when the hub stops.
pub(super) struct Manifest(PathBuf);

/// The pid a manifest left by an earlier hub names, when that process is
/// gone (killed with -9, or the machine restarted): such a manifest may
/// be replaced. A live pid, a link, or a file that is not a manifest is
/// left alone.
pub fn stale_manifest(path: &Path) -> Option<u32> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 4096 {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let doc: serde_json::Value = serde_json::from_str(&text).ok()?;
    let pid = u32::try_from(doc.get("pid")?.as_u64()?).ok()?;
    (!pid_alive(pid)).then_some(pid)
}

#[cfg(unix)]
fn pid_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: kill with signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    // EPERM: it exists but belongs to someone else.
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn pid_alive(_pid: u32) -> bool {
    true
}

impl Manifest {
    fn create(path: &Path) -> Result<(Manifest, std::fs::File), CliError> {
        if let Some(pid) = stale_manifest(path) {
            tracing::warn!("replacing the manifest of hub pid {pid}, which is gone");
            let _ = std::fs::remove_file(path);
        }
        let file = crate::index::private::file_options()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| {
                CliError::usage(format!(
                    "cannot create the manifest {} (it must not exist, or name a hub that is gone): {e}",
                    sanitize(&path.display().to_string())
                ))
            })?;
        Ok((Manifest(path.to_path_buf()), file))
    }
}

impl Drop for Manifest {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// POST /webhooks/subscribe at `hook_url` (see `webhook::subscribe`).
pub async fn subscribe(base_url: &str, key: &str, hook_url: &str) -> Result<(), String> {
    crate::webhook::subscribe::subscribe(base_url, key, hook_url).await
}

pub async fn run(ctx: &mut Ctx<'_>, args: &HubArgs, data_dir: PathBuf) -> Result<(), CliError> {
    let run = &args.run;
    if run.tls_cert.is_some() != run.tls_key.is_some() {
        return Err(CliError::usage("--tls-cert and --tls-key go together"));
    }
    if !(run.budget.is_finite() && run.budget > 0.0) {
        return Err(CliError::usage(
            "--budget must be a number of requests per second above 0",
        ));
    }
    let settings = ctx.settings()?.clone();
    let Some(key) = settings.api_key.clone() else {
        return Err(CliError::usage(
            "the hub needs the account's API key: set FRONTDESK_API_KEY, pass --api-key, or put api_key in the config file",
        ));
    };
    let Some(base_url) = settings.base_url.clone() else {
        return Err(CliError::usage(
            "the hub needs the service's base URL: --base-url or FRONTDESK_BASE_URL",
        ));
    };
    crate::server::init_stderr_logging("FRONTDESK_HUB_LOG", "warn,frontdesk::hub=info");
    let manifest = match &run.manifest {
        Some(p) => Some(Manifest::create(p)?),
        None => None,
    };
    let tls = match (&run.tls_cert, &run.tls_key) {
        (Some(cert), Some(key)) => {
            Some(crate::hub::tls::config(cert, key).map_err(|e| CliError::Usage(e.to_string()))?)
        }
        _ => None,
    };
    let listener = listener(&run.addr, tls).await?;
    let mut config = HubConfig::new(data_dir, &base_url, key.clone());
    config.webhook_secret =
        crate::webhook::subscribe::hmac_secret(run.webhook_secret.as_deref(), run.webhook_secret_file.as_deref())
            .map_err(CliError::Usage)?;
    config.forward_to = run.forward_to.clone();
    config.budget = run.budget;
    config.reconcile_every = reconcile_every(run);
    // Below the listeners' 30 s idle limit, so an agent's forwarded request
    // gets the service's answer or a 504, never a cut connection.
    config.timeout = settings.timeout.min(crate::hub::MAX_SERVICE_WAIT);
    let hub = start(listener, config)
        .await
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let _manifest_guard = match manifest {
        Some((guard, mut file)) => {
            let hook_url = match &run.public_url {
                Some(public) => crate::webhook::path::url(public, &hub.state.hook.current()),
                None => hub.hook_url(),
            };
            let doc = json!({ "url": hub.url, "hook_url": hook_url, "pid": std::process::id() }).to_string();
            file.write_all(doc.as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(|e| CliError::Other(format!("cannot write the manifest: {e}")))?;
            Some(guard)
        }
        None => None,
    };
    match (&run.public_url, run.subscribe) {
        (Some(public), true) => {
            let hook = crate::webhook::path::url(public, &hub.state.hook.current());
            let notice = crate::webhook::subscribe::replacing_notice(run.forward_to.as_deref());
            let _ = writeln!(ctx.err, "frontdesk hub: {notice}");
            match subscribe(&base_url, key.expose(), &hook).await {
                Ok(()) => {
                    let _ = writeln!(
                        ctx.err,
                        "frontdesk hub: webhook subscribed at {}/hooks/…",
                        sanitize(public)
                    );
                }
                Err(why) => {
                    let _ = writeln!(
                        ctx.err,
                        "frontdesk hub: warning: the webhook could not be subscribed ({why}); \
                         the hub keeps up by REST meanwhile"
                    );
                }
            }
        }
        _ => {
            let _ = writeln!(
                ctx.err,
                "frontdesk hub: the account's webhook was left as it is (subscribing replaces it: \
                 --subscribe --public-url URL); `frontdesk hub webhook url` prints the hook URL"
            );
        }
    }
    ctx.emit(&format!("frontdesk hub: listening on {}\n", sanitize(&hub.url)))?;
    ending().await;
    hub.stop().await;
    Ok(())
}

#[cfg(unix)]
pub(super) async fn ending() {
    use tokio::signal::unix::{SignalKind, signal};
    let kinds = [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()];
    let mut streams: Vec<_> = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
    if streams.is_empty() {
        let _ = tokio::signal::ctrl_c().await;
        return;
    }
    let any = futures::future::select_all(streams.iter_mut().map(|s| Box::pin(s.recv())));
    let _ = any.await;
}

#[cfg(not(unix))]
pub(super) async fn ending() {
    let _ = tokio::signal::ctrl_c().await;
}
