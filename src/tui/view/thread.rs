//! The thread: newest at the bottom, day separators, wrapped by grapheme
//! width. Received `‹`, sent `›` (right-aligned), notes `✎`: distinct
//! without colour.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset, Utc};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use unicode_segmentation::UnicodeSegmentation;

use super::clean;
use super::{pane_block, spinner};
use crate::api::{Message, MessageStatus};
use crate::tui::model::{Model, Pane};
use crate::tui::text::{plain_flags, sanitize, width};
use crate::tui::theme::Theme;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Day,
    NewMark,
    Header(Side),
    Body(Side),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Received,
    Sent,
    Note,
}

fn side(m: &Message) -> Side {
    match m.status {
        MessageStatus::Sent => Side::Sent,
        MessageStatus::Note => Side::Note,
        _ => Side::Received,
    }
}

fn local(t: DateTime<Utc>, tz: Option<FixedOffset>) -> DateTime<FixedOffset> {
    t.with_timezone(&super::offset(tz))
}

/// The thread as plain lines with their kinds.
fn layout(
    messages: &[Message],
    w: u16,
    tz: Option<FixedOffset>,
    new_from: Option<usize>,
    marks: &HashMap<String, String>,
) -> Vec<(Kind, String)> {
    let w = w.max(8) as usize;
    let mut out = Vec::new();
    let mut day = None;
    for (i, m) in messages.iter().enumerate() {
        let t = m.created_at.map(|t| local(t, tz));
        if let Some(t) = t
            && day != Some(t.date_naive())
        {
            day = Some(t.date_naive());
            out.push((Kind::Day, format!("── {} ──", t.format("%a %-d %b %Y"))));
        }
        if new_from == Some(i) {
            out.push((Kind::NewMark, "── new ──".into()));
        }
        let time = t.map(|t| t.format("%H:%M").to_string()).unwrap_or_default();
        let s = side(m);
        let header = match s {
            Side::Received => format!("‹ {time} {}", clean(&m.from)),
            Side::Sent => match m.uuid.as_ref().and_then(|u| marks.get(u)) {
                Some(mark) => format!("{time} {} › {mark}", clean(&m.from)),
                None => format!("{time} {} ›", clean(&m.from)),
            },
            Side::Note => format!("✎ note {time}"),
        };
        out.push((Kind::Header(s), crate::tui::text::truncate(&header, w).into_owned()));
        let indent = if s == Side::Sent { 4 } else { 2 };
        for l in wrap(&plain_flags(&sanitize(&m.text, true)), w - indent) {
            let l = if s == Side::Sent {
                l
            } else {
                format!("{}{l}", " ".repeat(indent))
            };
            out.push((Kind::Body(s), l));
        }
    }
    out
}

/// How many lines the thread takes at inner width `w`.
pub fn line_count(messages: &[Message], w: u16, tz: Option<FixedOffset>) -> usize {
    layout(messages, w, tz, None, &HashMap::new()).len()
}

/// Word wrap by display width; words wider than a line break by grapheme.
pub fn wrap(text: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for word in para.split_word_bounds() {
            let ww = width(word);
            if used + ww > w && used > 0 {
                lines.push(std::mem::take(&mut line).trim_end().to_string());
                used = 0;
                if word.trim().is_empty() {
                    continue;
                }
            }
            if ww > w {
                for g in word.graphemes(true) {
                    let gw = width(g);
                    if used + gw > w && used > 0 {
                        lines.push(std::mem::take(&mut line));
                        used = 0;
                    }
                    line.push_str(g);
                    used += gw;
                }
            } else {
                line.push_str(word);
                used += ww;
            }
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

pub fn render(model: &Model, frame: &mut Frame, area: Rect, theme: &Theme) {
    let t = &model.thread;
    let name = t
        .contact
        .as_deref()
        .and_then(|u| model.list.get(u))
        .map(|c| clean(c.label()))
        .unwrap_or_default();
    let mut title = if name.is_empty() {
        "Thread".to_string()
    } else {
        format!("Thread · {name}")
    };
    if t.loading.is_some() || t.loading_older.is_some() || t.refreshing.is_some() {
        title = format!("{title} {}", spinner(model.frame));
    }
    let block = pane_block(
        model,
        Pane::Thread,
        crate::tui::text::truncate(&title, (area.width as usize).saturating_sub(4)).into(),
        theme,
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
            None => format!("{} loading messages…", spinner(model.frame)),
        };
        frame.render_widget(Paragraph::new(Line::styled(msg, theme.dim())), inner);
        return;
    }
    let marks = super::compose::marks(model);
    let mut all = layout(&t.messages, inner.width, model.session.tz, t.new_from, &marks);
    all.extend(
        super::compose::outbox_lines(model, inner.width, model.session.tz)
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
            }),
    );
    let top_line = if t.loading_older.is_some() {
        Some(format!("{} loading older messages…", spinner(model.frame)))
    } else if t.older.is_none() {
        Some(if t.messages.is_empty() {
            "no messages yet".into()
        } else {
            "— start of conversation —".into()
        })
    } else {
        None
    };
    if let Some(l) = top_line {
        all.insert(0, (Kind::Day, l));
    }
    // Newest at the bottom: a short thread sits on the bottom edge.
    if all.len() < h {
        let pad = h - all.len();
        all.splice(0..0, std::iter::repeat_n((Kind::Day, String::new()), pad));
    }
    let total = all.len();
    let scroll = t.scroll.min(total.saturating_sub(h));
    let start = total.saturating_sub(h + scroll);
    let lines: Vec<Line> = all[start..(start + h).min(total)]
        .iter()
        .map(|(k, text)| {
            let (style, align): (Style, Alignment) = match k {
                Kind::Day => (theme.dim(), Alignment::Center),
                Kind::NewMark => (theme.unread(), Alignment::Center),
                Kind::Header(Side::Sent) => (theme.dim(), Alignment::Right),
                Kind::Header(_) => (theme.dim(), Alignment::Left),
                Kind::Body(Side::Sent) => (theme.sent(), Alignment::Right),
                Kind::Body(Side::Received) => (theme.received(), Alignment::Left),
                Kind::Body(Side::Note) => (theme.note(), Alignment::Left),
            };
            Line::styled(text.clone(), style).alignment(align)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_by_width_and_keeps_wide_graphemes_whole() {
        assert_eq!(wrap("hello world again", 11), vec!["hello world", "again"]);
        let cjk = wrap("你好世界你好", 5);
        assert!(cjk.iter().all(|l| width(l) <= 5), "{cjk:?}");
        assert_eq!(cjk.concat(), "你好世界你好");
        let emoji = wrap("👍🏽👍🏽👍🏽", 4);
        assert_eq!(emoji, vec!["👍🏽👍🏽", "👍🏽"]);
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
    }
}
