//! `frontdesk doctor`: one line per check (config, network, key, clock,
//! terminal, index), each problem with its fix. Exit 1 when any check
//! failed or warned.

use std::io::IsTerminal;
use std::time::Duration;

use crate::cli::error::CliError;

use crate::cli::ctx::Ctx;

use crate::cli::output::sanitize;
use crate::config::{API_KEY_FLAG_WARNING, Settings, Source};

/// How far the clocks may differ before signatures, "2m ago" and the
/// refresh's ordering start to lie.
const MAX_SKEW: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Warn,
    Fail,
}

/// One line of the report.
#[derive(Debug, Clone)]
pub struct Check {
    pub what: &'static str,
    pub verdict: Verdict,
    pub text: String,
}

fn check(what: &'static str, verdict: Verdict, text: impl Into<String>) -> Check {
    Check {
        what,
        verdict,
        text: text.into(),
    }
}

/// What the server answered to one cheap authenticated request.
enum Probe {
    Unreachable(String),
    Answered { status: u16, date: Option<String> },
}

async fn probe(s: &Settings, base: &str, key: &str, path: &str) -> Probe {
    let http = match reqwest::Client::builder().timeout(s.timeout).build() {
        Ok(h) => h,
        Err(e) => return Probe::Unreachable(format!("cannot build an HTTP client: {e}")),
    };
    let url = format!("{}/{path}", base.trim_end_matches('/'));
    match http.get(&url).bearer_auth(key).send().await {
        Err(e) => {
            let mut why = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(inner) = src {
                why = format!("{why}: {inner}");
                src = inner.source();
            }
            Probe::Unreachable(why.replace(key, "<redacted>"))
        }
        Ok(r) => Probe::Answered {
            status: r.status().as_u16(),
            date: r
                .headers()
                .get(reqwest::header::DATE)
                .and_then(|d| d.to_str().ok())
                .map(str::to_string),
        },
    }
}

/// The checks that need the network (config already loaded).
pub async fn account_checks(s: &Settings, now: chrono::DateTime<chrono::Utc>) -> Vec<Check> {
    match s.hub() {
        Ok(Some(hub)) => return hub_checks(s, &hub).await,
        Ok(None) => {}
        Err(e) => return vec![check("config", Verdict::Fail, format!("{e}"))],
    }
    let mut out = Vec::new();
    if s.source("api_key") == Source::Flag {
        out.push(check("key", Verdict::Warn, API_KEY_FLAG_WARNING));
    }
    let (Some(base), Some(key)) = (s.base_url.as_deref(), s.api_key.as_ref()) else {
        out.push(check(
            "account",
            Verdict::Warn,
            "no API key configured: frontdesk opens the demo; fix: frontdesk config init --base-url URL",
        ));
        return out;
    };
    if let Err(e) = s.client() {
        out.push(check("config", Verdict::Fail, format!("{e}")));
        return out;
    }
    // GET /auth/me is the documented check of a key; a server without it
    // is asked for its plan.
    let mut answer = probe(s, base, key.expose(), "auth/me").await;
    if matches!(answer, Probe::Answered { status: 404, .. }) {
        answer = probe(s, base, key.expose(), "plan").await;
    }
    match answer {
        Probe::Unreachable(why) => out.push(check(
            "network",
            Verdict::Fail,
            format!("cannot reach {base}: {why}; fix: check the URL, your network or VPN, and that the service is up"),
        )),
        Probe::Answered { status, date } => {
            out.push(check("network", Verdict::Ok, format!("{base} answers")));
            out.push(match status {
                200..=299 => check("key", Verdict::Ok, key_owner(s).await),
                401 | 403 => check(
                    "key",
                    Verdict::Fail,
                    format!(
                        "refused ({status}); fix: copy the key again from the dashboard, then frontdesk config init --force"
                    ),
                ),
                other => check(
                    "key",
                    Verdict::Warn,
                    format!("the server answered {other}; fix: retry later, or check the base URL ends in /v1"),
                ),
            });
            out.push(clock(date.as_deref(), now));
        }
    }
    out
}

/// "accepted", and whose key it is when the server says (GET /auth/me).
async fn key_owner(s: &Settings) -> String {
    let Ok(Some(client)) = s.client() else {
        return "accepted".into();
    };
    match client.key_user().await {
        Ok(u) if !u.name.trim().is_empty() || !u.email.trim().is_empty() => {
            format!(
                "accepted: the key of {} <{}>",
                sanitize(u.name.trim()),
                sanitize(u.email.trim())
            )
        }
        _ => "accepted".into(),
    }
}

/// Through a hub: the hub answers, and knows this token as an agent.
async fn hub_checks(s: &Settings, hub: &crate::hubclient::HubClient) -> Vec<Check> {
    let mut out = Vec::new();
    if s.source("hub_token") == Source::Flag {
        out.push(check(
            "token",
            Verdict::Warn,
            "the hub token was passed with --hub-token: other users of this host can read it in the process \
             list; set FRONTDESK_HUB_TOKEN or hub_token in the config file instead",
        ));
    }
    let root = crate::cli::output::sanitize(hub.root());
    match hub.whoami().await {
        Ok(me) => out.push(check(
            "hub",
            Verdict::Ok,
            format!(
                "{root} answers; this token is agent {} ({})",
                crate::cli::output::sanitize(&me.agent),
                crate::cli::output::sanitize(&me.email)
            ),
        )),
        Err(e @ crate::api::ApiError::Rejected { status: 401, .. }) => out.push(check(
            "token",
            Verdict::Fail,
            format!("{e}; fix: the hub's admin runs frontdesk hub agents add NAME --email E"),
        )),
        Err(e) => out.push(check(
            "hub",
            Verdict::Fail,
            format!("cannot use {root}: {e}; fix: check hub_url, your network, and that the hub is up"),
        )),
    }
    out
}

fn clock(date: Option<&str>, now: chrono::DateTime<chrono::Utc>) -> Check {
    let Some(theirs) = date.and_then(|d| chrono::DateTime::parse_from_rfc2822(d).ok()) else {
        return check("clock", Verdict::Warn, "the server sent no Date header; skew unknown");
    };
    let skew = (now - theirs.with_timezone(&chrono::Utc)).num_seconds();
    if skew.unsigned_abs() > MAX_SKEW.as_secs() {
        check(
            "clock",
            Verdict::Warn,
            format!(
                "this machine's clock is {}s {} the server's; fix: enable NTP (timedatectl set-ntp true)",
                skew.abs(),
                if skew > 0 { "ahead of" } else { "behind" }
            ),
        )
    } else {
        check("clock", Verdict::Ok, format!("{skew:+}s from the server"))
    }
}

/// The terminal frontdesk would draw on.
pub fn terminal_checks(env: &dyn Fn(&str) -> Option<String>, tty: bool, size: Option<(u16, u16)>) -> Vec<Check> {
    let mut out = Vec::new();
    let term = env("TERM").unwrap_or_default();
    let colours = if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        check("colours", Verdict::Ok, "none (NO_COLOR is set): the mono theme")
    } else if term.is_empty() || term == "dumb" {
        check(
            "colours",
            Verdict::Warn,
            format!("TERM={term:?} cannot draw the app; fix: export TERM=xterm-256color"),
        )
    } else if env("COLORTERM").is_some_and(|c| c.contains("truecolor") || c.contains("24bit")) {
        check("colours", Verdict::Ok, format!("24-bit (TERM={term})"))
    } else if term.contains("256") {
        check("colours", Verdict::Ok, format!("256 (TERM={term})"))
    } else {
        check(
            "colours",
            Verdict::Ok,
            format!("16 (TERM={term}); the themes need no more"),
        )
    };
    out.push(colours);
    out.push(match (tty, size) {
        (false, _) | (_, None) => check("size", Verdict::Ok, "not a terminal (scripts need none)"),
        (true, Some((w, h))) if w < 60 || h < 16 => check(
            "size",
            Verdict::Warn,
            format!("{w}x{h} is cramped; fix: make the window at least 80x24"),
        ),
        (true, Some((w, h))) => check(
            "size",
            Verdict::Ok,
            format!(
                "{w}x{h}{}",
                if w < 100 {
                    " (one pane at a time below 100 columns)"
                } else {
                    ""
                }
            ),
        ),
    });
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| env(k).filter(|v| !v.is_empty()))
        .unwrap_or_default();
    let utf8 = locale.to_ascii_lowercase().replace('-', "").contains("utf8");
    out.push(if utf8 {
        check("utf-8", Verdict::Ok, format!("locale {locale}"))
    } else {
        check(
            "utf-8",
            Verdict::Warn,
            format!("locale {locale:?} is not UTF-8: names and borders may garble; fix: export LANG=C.UTF-8"),
        )
    });
    out
}

pub async fn run(ctx: &mut Ctx<'_>) -> Result<(), CliError> {
    let mut checks = Vec::new();
    let settings = match crate::config::load(&ctx.global) {
        Ok(s) => {
            let place = s
                .config_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "no file".into());
            if s.warnings.is_empty() {
                checks.push(check("config", Verdict::Ok, format!("{place} (profile {})", s.profile)));
            }
            for w in &s.warnings {
                checks.push(check("config", Verdict::Warn, w.clone()));
            }
            Some(s)
        }
        Err(e) => {
            checks.push(check(
                "config",
                Verdict::Fail,
                format!("{e}; fix: edit the file, then frontdesk config check"),
            ));
            None
        }
    };
    if let Some(s) = &settings {
        checks.extend(account_checks(s, chrono::Utc::now()).await);
    }
    let tty = std::io::stdout().is_terminal();
    let size = crossterm::terminal::size().ok();
    checks.extend(terminal_checks(&|k| std::env::var(k).ok(), tty, size));
    if let Some(s) = &settings {
        checks.push(index_check(s));
    }

    let mut doc = String::new();
    for c in &checks {
        let v = match c.verdict {
            Verdict::Ok => "ok  ",
            Verdict::Warn => "warn",
            Verdict::Fail => "FAIL",
        };
        // Each check's text made inert on its own line.
        doc.push_str(&format!("{v}  {:<8} {}\n", c.what, sanitize(&c.text)));
    }
    ctx.emit(&doc)?;
    let bad = checks.iter().filter(|c| c.verdict != Verdict::Ok).count();
    if bad == 0 {
        Ok(())
    } else {
        Err(CliError::Other(format!("doctor found {bad} problem(s)")))
    }
}

/// The account's local index file: where it is, whether it is usable, and
/// whether others can read it. Read-only: doctor changes nothing.
fn index_check(settings: &Settings) -> Check {
    let Some(base_url) = settings.hub_root().or_else(|| settings.base_url.clone()) else {
        return check("index", Verdict::Ok, "no account configured, so no local index");
    };
    match crate::index::default_path(&settings.profile, &base_url) {
        Some(path) => index_file_check(&path),
        None => check(
            "index",
            Verdict::Warn,
            "no cache directory (HOME is not set); fix: set HOME, or pass --no-cache",
        ),
    }
}

fn index_file_check(path: &std::path::Path) -> Check {
    use crate::index::Health;
    let shown = path.display();
    if let Some(dir) = path.parent().filter(|d| d.exists())
        && let Err(why) = crate::index::private::check_dir(dir)
    {
        return check("index", Verdict::Fail, why);
    }
    match crate::index::inspect(path) {
        Health::Missing => check(
            "index",
            Verdict::Ok,
            format!("none yet at {shown}; frontdesk sync creates it"),
        ),
        Health::Unusable(why) => check(
            "index",
            Verdict::Fail,
            format!("{shown}: {why}; fix: frontdesk cache clear"),
        ),
        Health::Usable { contacts } => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(path).map(|m| m.permissions().mode()).unwrap_or(0);
                if mode & 0o077 != 0 {
                    return check(
                        "index",
                        Verdict::Warn,
                        format!("{shown} can be read by others (customers' data); fix: chmod 600 {shown}"),
                    );
                }
            }
            check("index", Verdict::Ok, format!("{shown}: {contacts} contacts"))
        }
    }
}

#[cfg(test)]
mod tests;
