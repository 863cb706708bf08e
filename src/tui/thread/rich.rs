//! A message's rich parts as thread lines (before indentation): a
//! forwarded mark, the quoted message of a reply, then after the text its
//! attachments (kind, file name, URL), a location (coordinates and a map
//! link), a contact card (names and phones), reply buttons and list
//! options. Words in brackets say what each is without colour or icons;
//! everything from outside is made inert first.

use crate::api::Message;
use crate::text::{clean_line, truncate};

use crate::tui::widgets::wrap;

/// The lines above the text: `[forwarded]`, `> quoted text` (one line).
pub fn lead(m: &Message, w: usize) -> Vec<String> {
    let mut out = Vec::new();
    if m.rich.forwarded() {
        out.push("[forwarded]".to_string());
    }
    if let Some(q) = m.rich.quoted() {
        let who = match q.status.as_str() {
            "sent" => "you",
            "received" => "them",
            _ => "",
        };
        let text = clean_line(&q.text);
        let quoted = if who.is_empty() {
            format!("> {text}")
        } else {
            format!("> {who}: {text}")
        };
        out.push(truncate(&quoted, w).into_owned());
    }
    out
}

/// The lines below the text, each part wrapped to `w`.
pub fn tail(m: &Message, w: usize) -> Vec<String> {
    let r = &m.rich;
    let mut out = Vec::new();
    let mut push = |s: String| out.extend(wrap(&s, w));
    for a in r.attachments() {
        push(format!("[{}] {}", a.kind.label(), clean_line(&a.file_name)));
        push(format!("  {}", clean_line(&a.url)));
    }
    if let Some(l) = r.location() {
        push(format!("[location] {}, {}", l.latitude, l.longitude));
        push(format!("  {}", l.map_link()));
    }
    for p in r.contact_card() {
        let phones: Vec<String> = p.phones.iter().map(|p| clean_line(p)).collect();
        push(
            format!("[contact] {} {}", clean_line(&p.name), phones.join(", "))
                .trim_end()
                .to_string(),
        );
    }
    for (label, choices) in [("buttons", r.reply_buttons()), ("list", r.interactive_list())] {
        let Some(c) = choices else { continue };
        let said: Vec<String> = [&c.header, &c.body]
            .into_iter()
            .map(|s| clean_line(s))
            .filter(|s| !s.trim().is_empty())
            .collect();
        if !said.is_empty() {
            push(format!("[{label}] {}", said.join(" · ")));
        }
        let options: Vec<String> = c.options.iter().map(|o| format!("({})", clean_line(o))).collect();
        if !options.is_empty() {
            let lead = if said.is_empty() {
                format!("[{label}] ")
            } else {
                "  ".into()
            };
            push(format!("{lead}{}", options.join(" ")));
        }
    }
    out
}
