//! `frontdesk cache path|clear`, and opening the account's local index for
//! the commands that read it.

use std::path::PathBuf;

use clap::Subcommand;

use crate::cli::{CliError, Ctx};
use crate::index::{self, Index};

#[derive(Debug, Subcommand)]
pub enum CacheCmd {
    /// Print where this account's local index is kept
    Path,
    /// Delete this account's local index (it is rebuilt on the next sync)
    Clear,
}

pub async fn run(ctx: &mut Ctx<'_>, cmd: CacheCmd) -> Result<(), CliError> {
    let path = index_path(ctx)?;
    match cmd {
        CacheCmd::Path => ctx.emit(&format!("{}\n", path.display())),
        CacheCmd::Clear => {
            let mut removed = 0;
            for suffix in ["", "-wal", "-shm"] {
                let mut p = path.clone().into_os_string();
                p.push(suffix);
                match std::fs::remove_file(&p) {
                    Ok(()) => removed += 1,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => {
                        return Err(CliError::Other(format!(
                            "cannot delete {}: {e}",
                            PathBuf::from(p).display()
                        )));
                    }
                }
            }
            let doc = if removed > 0 {
                format!("deleted the local index {}\n", path.display())
            } else {
                format!("there was no local index at {}\n", path.display())
            };
            ctx.emit(&doc)
        }
    }
}

/// This account's index file: the cache directory and a hash of the
/// profile and base URL.
pub fn index_path(ctx: &mut Ctx<'_>) -> Result<PathBuf, CliError> {
    let settings = ctx.settings()?;
    let Some(base_url) = settings.base_url.clone() else {
        return Err(CliError::usage(
            "no base URL configured, so no account and no local index: set base_url, FRONTDESK_BASE_URL or --base-url",
        ));
    };
    index::default_path(&settings.profile, &base_url)
        .ok_or_else(|| CliError::Other("no cache directory: HOME is not set".into()))
}

/// The account's index, or one in memory with `--no-cache` or
/// `cache = false`. A file that could not be used is reported in one line
/// on stderr, never fatal.
pub fn open_index(ctx: &mut Ctx<'_>) -> Result<Index, CliError> {
    let failed = |e: index::IndexError| CliError::Other(e.to_string());
    if !ctx.settings()?.cache {
        return Index::in_memory().map_err(failed);
    }
    let path = index_path(ctx)?;
    let opened = Index::open(&path).map_err(failed)?;
    if let Some(w) = opened.warning {
        let _ = writeln!(ctx.err, "frontdesk: warning: {}", crate::text::sanitize_line(&w));
    }
    Ok(opened.index)
}
