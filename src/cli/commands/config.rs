//! `frontdesk config init|check|path`: write a commented config file, show
//! the settings in force and where each came from, and where the file is.

use std::io::{BufRead, IsTerminal};

use clap::{Args, Subcommand};

use crate::cli::error::CliError;

use crate::cli::ctx::Ctx;

use crate::cli::output::sanitize;
use crate::config::init::{NewProfile, render, write};
use crate::config::{DEFAULT_PROFILE, Settings, Source};
use crate::tui::keymap::Keymap;

#[derive(Debug, Subcommand)]
pub enum ConfigCmd {
    /// Write a commented config file (mode 0600) for --profile with
    /// --base-url and --user; the API key is read from stdin (not echoed on
    /// a terminal), never from the command line
    Init(InitArgs),
    /// Check the config file and print the settings in force, each with its
    /// source (flag, env, file, default); the key masked
    Check,
    /// Print the config file's path
    Path,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Replace an existing file
    #[arg(long)]
    pub force: bool,
}

pub fn run(ctx: &mut Ctx<'_>, cmd: ConfigCmd) -> Result<(), CliError> {
    match cmd {
        ConfigCmd::Path => {
            let path = config_path(ctx)?;
            ctx.emit(&format!("{}\n", sanitize(&path.display().to_string())))
        }
        ConfigCmd::Init(a) => init(ctx, a),
        ConfigCmd::Check => check(ctx),
    }
}

/// The file `--config`, `FRONTDESK_CONFIG` or the platform choose.
fn config_path(ctx: &Ctx<'_>) -> Result<std::path::PathBuf, CliError> {
    ctx.global
        .config
        .clone()
        .or_else(|| std::env::var_os(crate::config::ENV_CONFIG).map(Into::into))
        .filter(|p| !p.as_os_str().is_empty())
        .or_else(crate::config::default_config_path)
        .ok_or_else(|| CliError::usage("no config directory is known on this system: pass --config PATH"))
}

/// Reads the key: hidden on a terminal, one line from a pipe.
fn read_key(ctx: &mut Ctx<'_>) -> Result<String, CliError> {
    let key = if std::io::stdin().is_terminal() {
        let _ = write!(ctx.err, "API key (not shown): ");
        let _ = ctx.err.flush();
        rpassword::read_password().map_err(|e| CliError::Other(format!("cannot read the key: {e}")))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| CliError::Other(format!("cannot read the key from stdin: {e}")))?;
        line
    };
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(CliError::usage("no API key given on stdin"));
    }
    Ok(key)
}

fn init(ctx: &mut Ctx<'_>, args: InitArgs) -> Result<(), CliError> {
    if ctx.global.api_key.is_some() {
        return Err(CliError::usage(
            "config init reads the key from stdin, not --api-key (the process list shows arguments)",
        ));
    }
    let base_url = ctx
        .global
        .base_url
        .clone()
        .or_else(|| std::env::var(crate::config::ENV_BASE_URL).ok())
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty())
        .ok_or_else(|| CliError::usage("config init needs --base-url URL (ending in /v1)"))?;
    if url::Url::parse(&base_url).is_err() {
        return Err(CliError::usage(format!("--base-url {base_url:?} is not a URL")));
    }
    let user_email = ctx
        .global
        .user_email
        .clone()
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty());
    if let Some(e) = &user_email {
        crate::config::checked_email(e).map_err(|p| CliError::usage(format!("--email: {p}")))?;
    }
    let path = config_path(ctx)?;
    let api_key = read_key(ctx)?;
    let profile = NewProfile {
        profile: ctx
            .global
            .profile
            .clone()
            .unwrap_or_else(|| DEFAULT_PROFILE.to_string()),
        base_url,
        api_key,
        user_uuid: ctx.global.user_uuid.clone(),
        user_email,
    };
    write(&path, &render(&profile), args.force).map_err(CliError::Other)?;
    ctx.emit(&format!(
        "wrote {} (mode 0600)\n",
        sanitize(&path.display().to_string())
    ))
}

/// A sync rate as `config check` shows it.
fn rate(r: f64) -> String {
    if r > 0.0 {
        format!("{r} per second")
    } else {
        "0 (no limit)".into()
    }
}

/// The key as `config check` shows it: its length and last two characters.
pub fn mask(key: &str) -> String {
    let n = key.chars().count();
    if n < 8 {
        format!("set ({n} characters)")
    } else {
        let tail: String = key.chars().skip(n - 2).collect();
        format!("…{tail} ({n} characters)")
    }
}

/// Where requests go, as `config check` shows it: through a hub its `/v1`
/// (the hub answers for the service), else `base_url`, else demo mode.
fn where_it_points(s: &Settings) -> String {
    match (s.hub_root(), &s.hub_token, &s.base_url, &s.api_key) {
        (Some(root), Some(_), _, _) => crate::cli::output::sanitize(&format!("{root}/v1 (through the hub)")),
        (_, _, Some(url), _) => crate::cli::output::sanitize(url),
        (_, _, None, Some(_)) => "(unset: the API key has nowhere to go)".into(),
        _ => "(unset: demo mode)".into(),
    }
}

fn check(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    let s: Settings = ctx.settings()?.clone();
    let (_, key_problems) = Keymap::resolve_with(&s.looks.keys, &s.looks.macros);
    let theme_problem = crate::tui::theme::Theme::load(s.looks.theme.as_deref(), false).err();
    let src = |name: &str| s.source(name).label();
    let path = s
        .config_path
        .as_ref()
        .map(|p| {
            let state = if p.exists() { "" } else { " (does not exist)" };
            format!("{}{state}", p.display())
        })
        .unwrap_or_else(|| "(none)".into());
    let mut rows: Vec<(&str, String, &str)> = vec![
        ("config file", path, ""),
        ("profile", s.profile.clone(), src("profile")),
        ("base_url", where_it_points(&s), src("base_url")),
        (
            "api_key",
            s.api_key.as_ref().map_or("(unset)".into(), |k| mask(k.expose())),
            src("api_key"),
        ),
        (
            "user_uuid",
            s.user_uuid.clone().unwrap_or_else(|| "(unset)".into()),
            src("user_uuid"),
        ),
        (
            "user_email",
            s.user_email.clone().unwrap_or_else(|| "(unset)".into()),
            src("user_email"),
        ),
        ("timeout_secs", s.timeout.as_secs().to_string(), src("timeout_secs")),
        (
            "refresh_secs",
            s.refresh_interval.as_secs().to_string(),
            src("refresh_secs"),
        ),
        ("bell", s.bell.to_string(), src("bell")),
        ("cache", s.cache.to_string(), src("cache")),
        ("sync_rate", rate(s.sync_rate), src("sync_rate")),
        (
            "full_sync_minutes",
            (s.full_sync_interval.as_secs() / 60).to_string(),
            src("full_sync_minutes"),
        ),
        (
            "theme",
            s.looks.theme.clone().unwrap_or_else(|| "dark (default)".into()),
            "",
        ),
        ("mouse", s.looks.mouse.to_string(), ""),
        ("title", s.looks.title.to_string(), ""),
        ("keys", format!("{} rebound", s.looks.keys.len()), ""),
    ];
    if let (Some(url), Some(token)) = (&s.hub_url, &s.hub_token) {
        // After api_key: through a hub the key is not used.
        rows.insert(4, ("hub_url", crate::cli::output::sanitize(url), src("hub_url")));
        rows.insert(5, ("hub_token", mask(token.expose()), src("hub_token")));
    }
    for r in rows.iter_mut() {
        if r.2 == Source::Default.label() {
            r.2 = "default";
        }
    }
    let mut doc = String::new();
    for (name, value, source) in rows {
        let source = if source.is_empty() {
            String::new()
        } else {
            format!("  ({source})")
        };
        doc.push_str(&format!("{name:<13} {value}{source}\n"));
    }
    let mut problems: Vec<String> = s.warnings.clone();
    problems.extend(key_problems);
    problems.extend(theme_problem);
    if s.source("api_key") == Source::Flag {
        problems.push(crate::config::API_KEY_FLAG_WARNING.to_string());
    }
    // One line per setting: each value made inert, the newlines kept.
    ctx.emit(&crate::text::sanitize(&doc, true))?;
    if problems.is_empty() {
        return Ok(());
    }
    for p in &problems {
        let _ = writeln!(ctx.err, "frontdesk: problem: {}", sanitize(p));
    }
    Err(CliError::Other(format!(
        "{} problem(s) in the configuration",
        problems.len()
    )))
}

#[cfg(test)]
mod tests;
