//! The hub's hook path: the service signs nothing (its documentation
//! describes no signature), so a delivery is authenticated by where it is
//! sent. The hub takes deliveries at `/hooks/<secret>`, a 256-bit random
//! segment made on first start and kept in the data dir (0600); every
//! other path under `/hooks` is 404. `frontdesk hub webhook rotate` makes
//! a new one: the running hub reads the file again when it changes, so the
//! old path stops at once.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use rand::RngCore;
use subtle::ConstantTimeEq;

/// The file in the hub's data dir.
pub const FILE: &str = "hook_secret";

/// The path prefix every hook path starts with.
pub const PREFIX: &str = "/hooks/";

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn well_formed(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn write(path: &Path, secret: &str) -> std::io::Result<()> {
    use std::io::Write;
    // A new file beside it, renamed over: a reader never sees half a secret.
    let tmp = path.with_extension("new");
    let _ = std::fs::remove_file(&tmp);
    let mut f = crate::index::private::file_options()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    f.write_all(secret.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn read(path: &Path) -> std::io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(s) => Ok(Some(s.trim().to_string()).filter(|s| well_formed(s))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The secret kept in `data_dir`, made (and kept) when there is none yet.
pub fn load_or_create(data_dir: &Path) -> std::io::Result<String> {
    let path = data_dir.join(FILE);
    if let Some(s) = read(&path)? {
        return Ok(s);
    }
    let s = new_secret();
    write(&path, &s)?;
    Ok(s)
}

/// A new secret in place of the old one; returns it.
pub fn rotate(data_dir: &Path) -> std::io::Result<String> {
    let s = new_secret();
    write(&data_dir.join(FILE), &s)?;
    Ok(s)
}

/// The full delivery URL for a hub reachable at `public_url`.
pub fn url(public_url: &str, secret: &str) -> String {
    format!("{}{PREFIX}{secret}", public_url.trim_end_matches('/'))
}

/// The running hub's secret, read again when its file changes.
pub struct HookSecret {
    path: PathBuf,
    held: Mutex<(Option<Version>, String)>,
}

impl std::fmt::Debug for HookSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookSecret")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// What tells one version of the file from the next: a rotation writes a
/// new file (a new inode) renamed over the old.
type Version = (SystemTime, u64);

fn modified(path: &Path) -> Option<Version> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let ino = 0;
    Some((m.modified().ok()?, ino))
}

impl HookSecret {
    /// Loads (or makes) the secret of `data_dir`.
    pub fn open(data_dir: &Path) -> std::io::Result<HookSecret> {
        let secret = load_or_create(data_dir)?;
        let path = data_dir.join(FILE);
        Ok(HookSecret {
            held: Mutex::new((modified(&path), secret)),
            path,
        })
    }

    /// The secret in force (the file's, when it changed since last read;
    /// an empty string, which nothing matches, when it cannot be read).
    pub fn current(&self) -> String {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let now = modified(&self.path);
        if now != held.0 {
            let secret = match read(&self.path) {
                Ok(Some(s)) => s,
                Ok(None) | Err(_) => {
                    tracing::warn!("the hook secret's file cannot be read: every delivery is refused");
                    String::new()
                }
            };
            *held = (now, secret);
        }
        held.1.clone()
    }

    /// Whether `given` (the path segment after `/hooks/`) is the secret,
    /// compared in constant time.
    pub fn matches(&self, given: &str) -> bool {
        let secret = self.current();
        !secret.is_empty() && bool::from(given.as_bytes().ct_eq(secret.as_bytes()))
    }

    /// The path deliveries are taken at.
    pub fn path(&self) -> String {
        format!("{PREFIX}{}", self.current())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_is_kept_private_and_rotation_stops_the_old_one() {
        let dir = tempfile::tempdir().expect("dir");
        let hook = HookSecret::open(dir.path()).expect("made");
        let first = hook.current();
        assert!(well_formed(&first), "256 bits in hex");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE))
                .expect("file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(load_or_create(dir.path()).expect("kept"), first);
        assert!(hook.matches(&first));
        assert!(!hook.matches("service"));
        assert!(!hook.matches(&first[..63]));
        let second = rotate(dir.path()).expect("rotated");
        assert_ne!(first, second);
        assert!(!hook.matches(&first), "the old path stops at once");
        assert!(hook.matches(&second));
        assert_eq!(
            url("https://hub.example.com/", &second),
            format!("https://hub.example.com/hooks/{second}")
        );
    }
}
