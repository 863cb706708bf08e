//! The reply composer at the bottom of the thread pane, its template
//! picker and values form, and the thread lines of messages sent here.
//! The root hands in whose thread shows (the composer shows under the
//! thread of the contact it is open for) and that thread's messages.

use std::collections::HashMap;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::state::{Compose, Stage};
use crate::api::{Message, Template};
use crate::text::{clean_text, truncate};
use crate::tui::shared::ViewCx;
use crate::tui::widgets::{centered, wrap};
use crate::tui::zone::Zone;

/// The editor's hint, naming the keys the session binds.
fn hint(vcx: &ViewCx) -> String {
    use crate::tui::keymap::{Mode, ModeAction as M};
    let k = |mode, action| vcx.keys.mode_key(mode, action);
    format!(
        "{} newline · {} send · {} template · {} close · {} snippet · {} editor",
        k(Mode::TextBox, M::Newline),
        k(Mode::Compose, M::Send),
        k(Mode::Compose, M::Templates),
        k(Mode::Compose, M::Cancel),
        k(Mode::Compose, M::Snippet),
        k(Mode::Compose, M::Editor)
    )
}

/// The template preview's hint: the keys that send it or go back.
fn preview_hint(vcx: &ViewCx) -> String {
    use crate::tui::keymap::{Mode, ModeAction as M};
    let k = |mode, action| vcx.keys.mode_key(mode, action);
    format!(
        "{} or {} send · {} change the values",
        k(Mode::Form, M::Done),
        k(Mode::Compose, M::Send),
        k(Mode::Compose, M::Cancel)
    )
}

/// The composer shows under the thread of the contact it is open for.
fn shown<'a>(st: &'a Compose, thread: Option<&str>) -> Option<&'a str> {
    let open = st.open.as_deref()?;
    (thread == Some(open)).then_some(open)
}

/// Splits the thread pane (showing `thread`'s messages) into the thread
/// and the composer under it.
pub fn split(st: &Compose, thread: Option<&str>, area: Rect) -> (Rect, Option<Rect>) {
    let Some(uuid) = shown(st, thread) else {
        return (area, None);
    };
    let lines = st.drafts.get(uuid).map_or(1, |a| a.lines().len()) as u16;
    let foot = foot_lines(st, uuid, area.width.saturating_sub(2)).len() as u16;
    let h = (lines.clamp(2, 8) + 2 + foot)
        .min(area.height / 2)
        .max(4.min(area.height));
    let [t, c] = Layout::vertical([Constraint::Min(1), Constraint::Length(h)]).areas(area);
    (t, Some(c))
}

/// The line under the editor: the error (up to two lines, wrapped) or the keys.
fn foot_lines(st: &Compose, uuid: &str, w: u16) -> Vec<String> {
    match st.errors.get(uuid) {
        Some(e) => {
            let mut l = wrap(&crate::tui::widgets::clean(e), w.max(1) as usize);
            l.truncate(2);
            l
        }
        None => vec![String::new()],
    }
}

pub fn render(st: &Compose, vcx: &ViewCx, thread: Option<&str>, frame: &mut Frame, area: Rect) {
    let Some(uuid) = shown(st, thread) else { return };
    let theme = vcx.theme;
    frame.render_widget(Clear, area);
    // The file the reply carries, before it is sent (`C-o` changes it).
    let title = match st.attachments.get(uuid) {
        Some(a) => format!(
            " Reply + {}: {} ({} changes) ",
            a.kind,
            crate::tui::widgets::clean(&a.file_name()),
            vcx.keys.mode_key(
                crate::tui::keymap::Mode::Compose,
                crate::tui::keymap::ModeAction::Attach
            )
        ),
        None => " Reply ".to_string(),
    };
    let block = Block::bordered()
        .title(truncate(&title, area.width.saturating_sub(2) as usize).into_owned())
        .border_style(theme.border_focused());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    let errors = foot_lines(st, uuid, inner.width);
    let [text, foot] = Layout::vertical([Constraint::Min(1), Constraint::Length(errors.len() as u16)]).areas(inner);
    match st.drafts.get(uuid) {
        Some(a) if !a.is_empty() => frame.render_widget(a, text),
        _ => {
            frame.render_widget(Paragraph::new(Span::styled("write a reply…", theme.dim())), text);
            frame.set_cursor_position((text.x, text.y));
        }
    }
    let w = foot.width as usize;
    if let Stage::Colleague(why) = &st.stage {
        let (yes, no) = confirm_keys(vcx);
        let q = format!("{}: send anyway? {yes}/{no}", crate::tui::widgets::clean(why));
        frame.render_widget(
            Paragraph::new(Line::styled(truncate(&q, w).into_owned(), theme.warning())),
            foot,
        );
        return;
    }
    if st.errors.contains_key(uuid) {
        let lines: Vec<Line> = errors.into_iter().map(|l| Line::styled(l, theme.error())).collect();
        frame.render_widget(Paragraph::new(lines), foot);
        return;
    }
    let line = if st.sending(uuid) {
        Line::styled(format!("{} sending…", vcx.spinner()), theme.dim())
    } else if let Stage::LoadingTemplates = st.stage {
        Line::styled(format!("{} loading templates…", vcx.spinner()), theme.dim())
    } else {
        Line::styled(truncate(&hint(vcx), w).into_owned(), theme.dim())
    };
    frame.render_widget(Paragraph::new(line), foot);
}

/// The keys of a yes/no question as the session binds them.
fn confirm_keys(vcx: &ViewCx) -> (String, String) {
    use crate::tui::keymap::{Mode, ModeAction as M};
    let yes = vcx.keys.mode_key(Mode::Confirm, M::Yes);
    let no = vcx
        .keys
        .mode_rows(Mode::Confirm)
        .iter()
        .find(|r| r.action == M::No)
        .and_then(|r| {
            let mut keys = r.label.split(' ');
            let first = keys.clone().next();
            keys.find(|k| k.chars().count() == 1).or(first)
        })
        .unwrap_or("")
        .to_string();
    (yes.to_string(), no)
}

/// The template picker or the values form, over everything (the root
/// draws it when no other overlay shows).
/// Whether the composer's stage draws over the whole screen (a picker,
/// the template's values or its preview) rather than in its pane.
pub fn floats(st: &Compose) -> bool {
    matches!(
        st.stage,
        Stage::Templates(_) | Stage::Snippets { .. } | Stage::Values { .. } | Stage::Preview { .. } | Stage::Attach(_)
    )
}

pub fn render_overlay(st: &Compose, vcx: &ViewCx, thread: Option<&str>, frame: &mut Frame) {
    if shown(st, thread).is_none() {
        return;
    }
    let theme = vcx.theme;
    let area = frame.area();
    match &st.stage {
        Stage::Templates(p) | Stage::Snippets { picker: p, .. } => p.render(frame, area, theme, vcx.keys),
        Stage::Values { template, form } => {
            // The template's text above the form, so the values make sense.
            let text = clean_text(&template.text);
            let w = area.width.min(70);
            let body = wrap(&text, w.saturating_sub(2) as usize);
            let h = (body.len() as u16 + 2).min(area.height / 3);
            let top = centered(area, w, h);
            let r = Rect { y: area.y + 1, ..top };
            frame.render_widget(Clear, r);
            frame.render_widget(
                Paragraph::new(body.into_iter().map(Line::from).collect::<Vec<_>>())
                    .wrap(Wrap { trim: false })
                    .block(Block::bordered().title(" Template ").border_style(theme.border())),
                r,
            );
            form.render(frame, area, theme, vcx.keys);
            if let Some(pos) = form.cursor_position(area, vcx.keys) {
                frame.set_cursor_position(pos);
            }
        }
        Stage::Preview { template, values, .. } => render_preview(vcx, frame, area, template, values),
        Stage::Attach(form) => {
            form.render(frame, area, theme, vcx.keys);
            if let Some(pos) = form.cursor_position(area, vcx.keys) {
                frame.set_cursor_position(pos);
            }
        }
        _ => {}
    }
}

/// The template as it will be sent, with the keys that send it or go back.
fn render_preview(vcx: &ViewCx, frame: &mut Frame, area: Rect, template: &Template, values: &[String]) {
    let theme = vcx.theme;
    let text = clean_text(&super::update::fill(&template.text, values));
    let w = area.width.min(70);
    let inner = w.saturating_sub(2) as usize;
    let mut body: Vec<Line> = wrap(&text, inner.max(1)).into_iter().map(Line::from).collect();
    body.push(Line::raw(""));
    body.push(Line::styled(
        truncate(&preview_hint(vcx), inner).into_owned(),
        theme.dim(),
    ));
    let h = (body.len() as u16 + 2).min(area.height);
    let r = centered(area, w, h);
    let title = format!(" Send “{}”? ", crate::tui::widgets::clean(&template.title));
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(body).block(
            Block::bordered()
                .title(truncate(&title, inner).into_owned())
                .border_style(theme.border_focused()),
        ),
        r,
    );
}

/// Delivery markers of messages sent here, by server uuid.
pub fn marks(st: &Compose) -> HashMap<String, String> {
    st.outbox
        .iter()
        .filter_map(|o| Some((o.uuid.clone()?, o.marker())))
        .collect()
}

/// Thread lines (header?, text) of messages sent here to `contact` that
/// its thread (`messages`) does not hold yet: a refresh that brings one in
/// replaces it (same uuid).
pub fn outbox_lines(
    st: &Compose,
    contact: Option<&str>,
    messages: &[Message],
    w: u16,
    tz: Option<Zone>,
) -> Vec<(bool, String)> {
    let Some(contact) = contact else {
        return Vec::new();
    };
    let w = w.max(8) as usize;
    let mut out = Vec::new();
    for o in st.outbox.iter().filter(|o| o.contact == contact) {
        if o.uuid
            .as_ref()
            .is_some_and(|u| messages.iter().any(|m| m.uuid.as_deref() == Some(u.as_str())))
        {
            continue;
        }
        let t = crate::tui::widgets::local(o.at, tz);
        let header = format!("{} you › {}", t.format("%H:%M"), o.marker());
        out.push((true, truncate(&header, w).into_owned()));
        for l in wrap(&clean_text(&o.text), w - 4) {
            out.push((false, l));
        }
    }
    out
}
