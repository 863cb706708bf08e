//! `frontdesk cache path|clear`, and opening the account's local index for
//! the commands that read it.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::cli::error::CliError;

use crate::cli::ctx::Ctx;
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
            let (main, aside) = clear(&path)?;
            let doc = match (main, aside) {
                (false, 0) => format!("there was no local index at {}\n", path.display()),
                (_, 0) => format!("deleted the local index {}\n", path.display()),
                (_, n) => format!(
                    "deleted the local index {} and {n} damaged cop{} moved aside\n",
                    path.display(),
                    if n == 1 { "y" } else { "ies" }
                ),
            };
            ctx.emit(&doc)
        }
    }
}

/// Deletes the index file, its -wal and -shm, and every copy of it moved
/// aside (`<name>.corrupt-<stamp>`, with their own -wal/-shm): customers'
/// data must not outlive a clear. Returns whether the index itself was
/// there, and how many copies moved aside were deleted.
fn clear(path: &Path) -> Result<(bool, usize), CliError> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return Ok((false, 0));
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((false, 0)),
        Err(e) => return Err(CliError::Other(format!("cannot read {}: {e}", dir.display()))),
    };
    let (mut main, mut aside) = (false, 0);
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(name)) else {
            continue;
        };
        let copy = rest.starts_with(".corrupt-");
        if !(copy || matches!(rest, "" | "-wal" | "-shm")) {
            continue;
        }
        let p = entry.path();
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(CliError::Other(format!("cannot delete {}: {e}", p.display()))),
        }
        if rest.is_empty() {
            main = true;
        } else if copy && !rest.ends_with("-wal") && !rest.ends_with("-shm") {
            aside += 1;
        }
    }
    Ok((main, aside))
}

/// This account's index file: the cache directory and a hash of the
/// profile and base URL.
pub fn index_path(ctx: &mut Ctx<'_>) -> Result<PathBuf, CliError> {
    let settings = ctx.settings()?;
    // Through a hub, the index is the hub's view of the account: its own file.
    let Some(base_url) = settings.hub_root().or_else(|| settings.base_url.clone()) else {
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
