//! The thread: newest at the bottom, day separators, wrapped by grapheme
//! width. Received `‹`, sent `›` (right-aligned), notes `✎`: distinct
//! without colour.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use std::collections::HashMap;

use super::layout::{Kind, Side, side, wrap};
use super::state::{Delivery, Geometry, Popup, Thread};
use crate::text::truncate;
use crate::tui::shared::{Pane, ViewCx};
use crate::tui::widgets::centered;
use crate::tui::widgets::{clean, stamp};

/// What the thread shows that other parts hold: the composer's delivery
/// marks by message uuid, and its outbox lines (header?, text) for messages
/// sent here that the thread does not hold yet. The root gathers them.
#[derive(Debug, Default)]
pub struct Extras {
    pub marks: HashMap<String, String>,
    pub outbox: Vec<(bool, String)>,
}

/// The thread pane. `extras` is what the root gathered for it; `outbox`
/// is asked for the pane's inner width.
pub fn render(t: &Thread, vcx: &ViewCx, frame: &mut Frame, area: Rect, extras: impl FnOnce(u16) -> Extras) {
    let theme = vcx.theme;
    let name = t
        .contact
        .as_deref()
        .and_then(|u| vcx.contacts.label(u))
        .map(|l| clean(&l))
        .unwrap_or_default();
    let mut title = if name.is_empty() {
        "Thread".to_string()
    } else {
        format!("Thread · {name}")
    };
    // A colleague on it too (through a hub): "dana replying…".
    if let Some(here) = t.contact.as_deref().and_then(|u| vcx.colleagues.label(u, vcx.now)) {
        title = format!("{title} · {}", clean(&here));
    }
    if t.loading.is_some() || t.loading_older.is_some() || t.refreshing.is_some() {
        title = format!("{title} {}", vcx.spinner());
    }
    let block = vcx.pane_block(
        Pane::Thread,
        truncate(&title, (area.width as usize).saturating_sub(4)).into(),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let h = inner.height as usize;
    if t.contact.is_none() {
        frame.render_widget(Paragraph::new(Line::styled("no contact selected", theme.dim())), inner);
        return;
    }
    if !t.loaded {
        let msg = match &t.error {
            Some(e) => format!("could not load messages: {}", clean(e)),
            None => format!("{} loading messages…", vcx.spinner()),
        };
        frame.render_widget(Paragraph::new(Line::styled(msg, theme.dim())), inner);
        return;
    }
    let Extras { marks, outbox } = extras(inner.width);
    let outbox = outbox
        .into_iter()
        .map(|(h, l)| {
            (
                if h {
                    Kind::Header(Side::Sent)
                } else {
                    Kind::Body(Side::Sent)
                },
                l,
            )
        })
        .collect();
    let g = Geometry {
        width: inner.width,
        height: h,
        tz: vcx.session.tz,
    };
    let focused = vcx.focus == Pane::Thread;
    // Only a spinner on screen keeps the clock ticking: ask for one only then.
    let spin = if t.loading_older.is_some() { vcx.spinner() } else { "" };
    let visible = t.visible_lines(g, spin, focused, |u| marks.get(u).cloned(), outbox);
    let preview_rows = super::preview::selected_rows(&visible);
    let mut links = Vec::new();
    let lines: Vec<Line> = visible
        .into_iter()
        .enumerate()
        .map(|(y, (k, text, spans))| {
            let selected = focused && matches!(k, Kind::Header(_)) && text.starts_with('▶');
            let (style, align): (Style, Alignment) = match k {
                Kind::Day => (theme.dim(), Alignment::Center),
                Kind::NewMark => (theme.unread(), Alignment::Center),
                Kind::Header(Side::Sent) => (theme.dim(), Alignment::Right),
                Kind::Header(_) => (theme.dim(), Alignment::Left),
                Kind::Body(Side::Sent) => (theme.sent(), Alignment::Right),
                Kind::Body(Side::Received) => (theme.received(), Alignment::Left),
                Kind::Body(Side::Note) => (theme.note(), Alignment::Left),
            };
            let style = if selected { theme.selected() } else { style };
            let line = Line::styled(text, style).alignment(align);
            if !spans.is_empty() {
                // Where the line starts in the pane, as the paragraph aligns it.
                let x = match align {
                    Alignment::Right => inner.width.saturating_sub(line.width() as u16),
                    _ => 0,
                };
                links.extend(spans.into_iter().map(|s| (y as u16, x, s)));
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    if t.hyperlinks {
        let buf = frame.buffer_mut();
        for (y, x, s) in links {
            let (start, end) = (inner.x + x + s.start, inner.x + x + s.end);
            super::hyperlink::apply(buf, inner, inner.y + y, start, end, &s.url);
        }
    }
    draw_preview(t, frame, inner, preview_rows);
    if let Some(Popup::Note { form }) = &t.popup {
        super::note::render(form, vcx, frame, area);
    } else if let Some(Popup::Funnel { picker }) = &t.popup {
        super::funnel::render(picker, vcx, frame, area);
    } else if let Some(p) = &t.popup {
        let sender = match p {
            Popup::Info { message, .. } => sent_by(message, t.me.as_deref(), &marks),
            Popup::ConfirmDelete { .. } | Popup::Note { .. } | Popup::Funnel { .. } => None,
        };
        popup(vcx, p, frame, area, sender);
    }
}

/// The delete confirmation or a message's details, over the thread pane.
fn popup(vcx: &ViewCx, p: &Popup, frame: &mut Frame, area: Rect, sender: Option<String>) {
    let theme = vcx.theme;
    let tz = vcx.session.tz;
    let (title, message) = match p {
        Popup::ConfirmDelete { message } => (" Delete this message? ", message),
        Popup::Info { message, .. } => (" Message (Esc closes) ", message),
        Popup::Note { .. } | Popup::Funnel { .. } => return,
    };
    let w = area.width.clamp(20, 64);
    let text_w = w.saturating_sub(4) as usize;
    let mut lines: Vec<Line> = Vec::new();
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<9}"), theme.dim()),
            Span::raw(truncate(&value, text_w.saturating_sub(9)).into_owned()),
        ])
    };
    let when = stamp(message.created_at, tz).unwrap_or_else(|| "unknown".into());
    match p {
        Popup::ConfirmDelete { .. } => {
            lines.push(field("sent", when));
            for l in wrap(&clean(&message.text), text_w).into_iter().take(3) {
                lines.push(Line::raw(l));
            }
            lines.push(Line::styled(
                truncate("The service's copy goes; the customer's phone keeps it.", text_w).into_owned(),
                theme.dim(),
            ));
            lines.push(Line::from(vec![
                Span::styled("y", theme.accent()),
                Span::raw(" delete   "),
                Span::styled("n Esc", theme.accent()),
                Span::raw(" keep"),
            ]));
        }
        Popup::Info { delivery, .. } => {
            lines.push(field("kind", message.status.to_string()));
            lines.push(field("channel", clean(&message.channel)));
            lines.push(field("from", clean(&message.from)));
            lines.push(field("to", clean(&message.to)));
            if let Some(by) = sender {
                lines.push(field("sent by", by));
            }
            lines.push(field("time", when));
            if let Some(u) = &message.uuid {
                lines.push(field("id", clean(u)));
            }
            let d = match delivery {
                Delivery::NotSent => "none (not sent through the interface)".to_string(),
                Delivery::Loading => format!("{} checking…", vcx.spinner()),
                Delivery::Known(r) => format!("{} (kept up to date)", clean(&r.status.to_string())),
                Delivery::Unavailable(why) => clean(why),
            };
            lines.push(field("delivery", d));
        }
        Popup::Note { .. } | Popup::Funnel { .. } => {}
    }
    let r = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, r);
    let block = Block::bordered().title(title).border_style(theme.border_focused());
    let inner = block.inner(r);
    frame.render_widget(block, r);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Which agent sent `m`, for its info: the hub's `sentBy` (`you` when it
/// is this agent, `me`), or this session's own send (it has a delivery
/// mark in `marks`); unknown otherwise. `None` for what an agent did not
/// send (the customer's messages, notes).
fn sent_by(m: &crate::api::Message, me: Option<&str>, marks: &HashMap<String, String>) -> Option<String> {
    if side(m) != Side::Sent {
        return None;
    }
    let by = m.sent_by.as_deref().map(clean).filter(|n| !n.is_empty());
    Some(match by {
        Some(by) if me.is_some_and(|me| clean(me) == by) => format!("{by} (you)"),
        Some(by) => by,
        None if m.uuid.as_ref().is_some_and(|u| marks.contains_key(u)) => "you, from this frontdesk".into(),
        None => "unknown (not sent through a team hub)".into(),
    })
}

/// The selected message's image under its rows, when previews are on.
fn draw_preview(t: &Thread, frame: &mut Frame, inner: Rect, rows: Option<std::ops::Range<u16>>) {
    let (Some(rows), true) = (rows, t.previews.on()) else {
        return;
    };
    let Some(m) = t.selected().and_then(|i| t.messages.get(i)) else {
        return;
    };
    let Some(url) = super::preview::image_url(m) else {
        return;
    };
    if let Some(area) = super::preview::place(inner, rows, side(m) == Side::Sent) {
        t.previews.draw(&url, frame, area, inner);
    }
}
