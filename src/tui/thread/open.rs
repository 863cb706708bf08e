//! `o`: opens the selected message's attachment or link with the system's
//! opener (`xdg-open`, `open` on macOS). Over SSH (`SSH_CONNECTION` set)
//! the opener would run on the remote host, so the link is copied to the
//! local clipboard with OSC 52 instead, and the toast says so. A message
//! with several links opens the next one at each press.

use super::effect::ThreadEffect;
use super::msg::{Opened, ThreadMsg};
use super::state::Thread;
use crate::api::{Message, is_web_link};
use crate::text::sanitize_line;
use crate::tui::shared::{Cx, Note, Out, ToastKind};

type O<'a> = Out<'a, ThreadEffect>;

/// Every link of `m`: its attachments, its location's map, then the web
/// links in its text.
pub fn links(m: &Message) -> Vec<String> {
    let mut out = m.rich.links();
    for word in m.text.split_whitespace() {
        let word = word.trim_matches(|c: char| matches!(c, '<' | '>' | '(' | ')' | '"' | '\'' | ',' | '.' | ';'));
        if is_web_link(word) && !out.iter().any(|l| l == word) {
            out.push(word.to_string());
        }
    }
    out
}

/// `o` on the selected message.
pub fn open_link(t: &mut Thread, cx: &Cx, out: &mut O) {
    let Some(m) = super::selected::selected_message(t, cx, out) else {
        return;
    };
    let all = links(&m);
    if all.is_empty() {
        return out.toast(ToastKind::Info, "this message has no attachment or link to open");
    }
    let key = super::layout::message_key(&m);
    let next = match &t.opened {
        Some((k, i)) if *k == key => (i + 1) % all.len(),
        _ => 0,
    };
    t.opened = Some((key, next));
    out.fx(ThreadEffect::Open { url: all[next].clone() });
}

/// What the opener did.
pub fn on_opened(out: &mut O, url: String, outcome: Opened) {
    let shown = sanitize_line(&url);
    match outcome {
        Opened::Launched => out.toast(ToastKind::Success, format!("opened {shown}")),
        Opened::CopyOverSsh | Opened::NoOpener => {
            let why = if outcome == Opened::CopyOverSsh {
                "over SSH"
            } else {
                "no opener here"
            };
            out.note(Note::Copy(url));
            out.toast(ToastKind::Success, format!("{why}: copied {shown} (OSC 52)"));
        }
        Opened::Failed(why) => out.toast(
            ToastKind::Error,
            format!("could not open {shown}: {}", sanitize_line(&why)),
        ),
    }
}

/// Runs the system's opener on `url` (a web link: checked again here).
pub async fn launch(url: &str) -> Opened {
    if !is_web_link(url) {
        return Opened::Failed("not a web link".into());
    }
    if std::env::var_os("SSH_CONNECTION").is_some_and(|v| !v.is_empty()) {
        return Opened::CopyOverSsh;
    }
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    let child = tokio::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(false)
        .spawn();
    match child {
        Ok(mut child) => match child.wait().await {
            Ok(s) if s.success() => Opened::Launched,
            Ok(s) => Opened::Failed(format!("{opener} ended with {s}")),
            Err(e) => Opened::Failed(format!("{opener}: {e}")),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Opened::NoOpener,
        Err(e) => Opened::Failed(format!("{opener}: {e}")),
    }
}

impl ThreadMsg {
    /// The answer to [`ThreadEffect::Open`].
    pub(super) fn opened(url: String, outcome: Opened) -> ThreadMsg {
        ThreadMsg::Opened { url, outcome }
    }
}
