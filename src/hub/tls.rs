//! TLS for a hub off loopback (`--tls-cert`, `--tls-key`): rustls. Each
//! handshake runs in its own task with a deadline, so a client that
//! stalls mid-handshake holds up no other.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::server::TlsStream;

use super::error::HubError;

/// Time a client has to finish its handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Reads a PEM certificate chain and its private key.
pub fn config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, HubError> {
    let shown = |p: &Path| crate::text::sanitize_line(&p.display().to_string());
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| HubError::Config(format!("cannot read the certificate {}: {e}", shown(cert))))?;
    if certs.is_empty() {
        return Err(HubError::Config(format!("no certificate in {}", shown(cert))));
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| HubError::Config(format!("cannot read the private key {}: {e}", shown(key))))?;
    let config = ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| HubError::Config(format!("the certificate and key do not go together: {e}")))?;
    Ok(Arc::new(config))
}

/// A TCP listener whose connections come out with TLS established.
pub struct TlsListener {
    rx: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    local: SocketAddr,
    accept_loop: tokio::task::JoinHandle<()>,
}

impl TlsListener {
    pub fn new(listener: TcpListener, config: Arc<ServerConfig>) -> std::io::Result<TlsListener> {
        let local = listener.local_addr()?;
        let acceptor = TlsAcceptor::from(config);
        let (tx, rx) = mpsc::channel(64);
        let accept_loop = tokio::spawn(async move {
            loop {
                let (tcp, addr) = match listener.accept().await {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::warn!("accepting a connection failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    match tokio::time::timeout(HANDSHAKE, acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => {
                            let _ = tx.send((tls, addr)).await;
                        }
                        Ok(Err(e)) => tracing::debug!("a TLS handshake failed: {e}"),
                        Err(_) => tracing::debug!("a TLS handshake timed out"),
                    }
                });
            }
        });
        Ok(TlsListener { rx, local, accept_loop })
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.rx.recv().await {
            Some(conn) => conn,
            // The accept loop never ends on its own.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.local)
    }
}
