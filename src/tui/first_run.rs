//! The first run: no key configured, no config file yet, a terminal on
//! both ends and no `--demo`. A short screen offers the demo or setting up
//! an account, chosen with one key (d or s; q or Esc leaves) read in raw
//! mode, cooked mode given back before anything else is asked: the base
//! URL, the key typed without echo, an optional user uuid and collaborator
//! email. The key is checked with GET /auth/me, which names whose key it
//! is (GET /plan where the server lacks it), before saving with `config init`'s rules (commented file, mode 0600).

use std::io::{BufRead, IsTerminal, Write};

use crossterm::event::{KeyEvent, KeyEventKind};

use crate::config::init::{NewProfile, render, write};
use crate::config::{DEFAULT_PROFILE, GlobalArgs, Settings};
use crate::tui::keymap::{Keymap, Mode, ModeAction};

/// Tries at the key before the screen gives up and opens the demo.
const TRIES: usize = 3;

/// What the agent chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Demo,
    /// An account was saved: load the settings again.
    Saved,
    /// q, Esc or Ctrl-C at the chooser: nothing opens.
    Leave,
}

/// What one key at the chooser means, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Demo,
    SetUp,
    Leave,
}

/// The chooser's key, looked up in `keys`' `first-run.*` rows (by
/// default d, s in either case; q, Esc and Ctrl-C leave).
pub fn pick(keys: &Keymap, key: &KeyEvent) -> Option<Pick> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    match keys.mode_action_for(Mode::FirstRun, key)? {
        ModeAction::Demo => Some(Pick::Demo),
        ModeAction::SetUp => Some(Pick::SetUp),
        ModeAction::Close => Some(Pick::Leave),
        _ => None,
    }
}

/// The first key of `action`'s row, as the screen names it ("" when the
/// `[keys]` table took them all).
fn first_key(keys: &Keymap, action: ModeAction) -> &str {
    keys.mode_rows(Mode::FirstRun)
        .iter()
        .find(|r| r.action == action)
        .and_then(|r| r.label.split(' ').next())
        .unwrap_or("")
}

/// Raw mode while it lives; cooked mode again when dropped (errors and
/// panics too).
struct Raw;

impl Raw {
    fn on() -> std::io::Result<Raw> {
        crossterm::terminal::enable_raw_mode()?;
        Ok(Raw)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// Waits for one key that means something at the chooser.
fn choose(keys: &Keymap) -> std::io::Result<Pick> {
    let raw = Raw::on()?;
    let picked = loop {
        if let crossterm::event::Event::Key(key) = crossterm::event::read()?
            && let Some(p) = pick(keys, &key)
        {
            break p;
        }
    };
    drop(raw);
    let shown = match picked {
        Pick::Demo => first_key(keys, ModeAction::Demo),
        Pick::SetUp => first_key(keys, ModeAction::SetUp),
        Pick::Leave => first_key(keys, ModeAction::Close),
    };
    println!("{}", crate::text::sanitize_line(shown));
    Ok(picked)
}

/// True when the first-run screen should show instead of the demo.
pub fn applies(settings: &Settings, demo_flag: bool) -> bool {
    !demo_flag
        && settings.is_demo()
        && settings.config_path.as_ref().is_some_and(|p| !p.exists())
        && std::io::stdin().is_terminal()
        && std::io::stdout().is_terminal()
}

fn ask(prompt: &str) -> std::io::Result<String> {
    let mut out = std::io::stdout();
    write!(out, "{prompt}")?;
    out.flush()?;
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "input closed"));
    }
    Ok(line.trim().to_string())
}

/// Runs the screen on the plain terminal (before the alternate screen).
pub async fn run(settings: &Settings, global: &GlobalArgs) -> Result<Choice, String> {
    let io = |e: std::io::Error| format!("cannot read from the terminal: {e}");
    let Some(path) = settings.config_path.clone() else {
        return Ok(Choice::Demo);
    };
    // The `[keys]` table, if any, names the chooser's keys.
    let (keys, _) = Keymap::resolve(&settings.looks.keys);
    let key = |a| crate::text::sanitize_line(first_key(&keys, a));
    let (demo, set_up, leave) = (key(ModeAction::Demo), key(ModeAction::SetUp), key(ModeAction::Close));
    println!("Welcome to frontdesk. No account is set up yet.\n");
    println!("  {demo}  open the demo (a local server with made-up customers)");
    println!(
        "  {set_up}  set up an account (saved to {}, readable by you alone)\n",
        crate::config::shown(&path)
    );
    print!("Choose {demo} or {set_up} ({leave} leaves): ");
    std::io::stdout().flush().map_err(io)?;
    match choose(&keys).map_err(io)? {
        Pick::Demo => return Ok(Choice::Demo),
        Pick::Leave => {
            println!("Nothing was saved; run `frontdesk` again to choose, or `frontdesk --demo`.");
            return Ok(Choice::Leave);
        }
        Pick::SetUp => {}
    }
    let base_url = loop {
        let url = ask("Base URL of the service (ending in /v1): ").map_err(io)?;
        match url::Url::parse(&url) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => break url,
            _ => println!("That is not an http(s) URL; for example https://api.example.com/v1"),
        }
    };
    let user_uuid = ask("Your user uuid (optional, Enter to skip): ").map_err(io)?;
    let user_email = loop {
        let email = ask("Your collaborator email, for the Mine view (optional, Enter to skip): ").map_err(io)?;
        if email.is_empty() {
            break None;
        }
        match crate::config::checked_email(&email) {
            Ok(()) => break Some(email),
            Err(problem) => println!("{problem}; for example you@example.com, or Enter to skip"),
        }
    };
    for _ in 0..TRIES {
        print!("API key (not shown; Enter alone opens the demo): ");
        let _ = std::io::stdout().flush();
        let key = rpassword::read_password().map_err(io)?;
        let key = key.trim().to_string();
        if key.is_empty() {
            return Ok(Choice::Demo);
        }
        println!("Checking the key…");
        let checked = match crate::api::Client::new(&base_url, &key, settings.timeout) {
            Ok(client) => check_key(&client).await,
            Err(e) => Err(e),
        };
        match checked {
            Ok(owner) => {
                let profile = NewProfile {
                    profile: global.profile.clone().unwrap_or_else(|| DEFAULT_PROFILE.to_string()),
                    base_url: base_url.clone(),
                    api_key: key,
                    user_uuid: Some(user_uuid.clone()).filter(|u| !u.is_empty()),
                    user_email: user_email.clone(),
                };
                write(&path, &render(&profile), false)?;
                println!(
                    "{} Saved to {} (mode 0600).",
                    works(owner.as_ref()),
                    crate::config::shown(&path)
                );
                return Ok(Choice::Saved);
            }
            Err(e) => println!("That did not work: {}", crate::text::sanitize_line(&e.to_string())),
        }
    }
    println!("Opening the demo instead; run `frontdesk config init` to try again.");
    Ok(Choice::Demo)
}

/// Checks the key with GET /auth/me, which says whose it is; a server
/// without it is asked for the plan (GET /plan) instead. The key's user,
/// when the server said.
async fn check_key(client: &crate::api::Client) -> Result<Option<crate::api::KeyUser>, crate::api::ApiError> {
    match client.key_user().await {
        Ok(user) => Ok(Some(user)),
        Err(crate::api::ApiError::NotOffered { .. }) => client.plan().await.map(|_| None),
        Err(e) => Err(e),
    }
}

/// "The key works: the key of Ana Silva <ana@example.com>." (as `doctor`
/// says it), or without a name when the server gave none.
fn works(owner: Option<&crate::api::KeyUser>) -> String {
    let clean = |s: &str| crate::text::sanitize_line(s.trim());
    match owner {
        Some(u) if !u.name.trim().is_empty() && !u.email.trim().is_empty() => {
            format!("The key works: the key of {} <{}>.", clean(&u.name), clean(&u.email))
        }
        Some(u) if !u.name.trim().is_empty() || !u.email.trim().is_empty() => {
            format!("The key works: the key of {}{}.", clean(&u.name), clean(&u.email))
        }
        _ => "The key works.".to_string(),
    }
}

#[cfg(test)]
mod tests;
