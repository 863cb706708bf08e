//! The webhook log: one page of events, the selected one's response.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::columns::{col, flex};
use super::parts::{V, detail, local, state, table, text_lines};
use crate::api::WebhookEvent;
use crate::tui::account::state::{Account, AccountAreas};
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;

pub(super) fn webhooks(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let w = &acc.webhooks;
    let mut area = a.list;
    if !state(v, &w.events, frame, &mut area, theme) {
        return;
    }
    let items = w.events.data.as_deref().unwrap_or_default();
    let cols = [
        col("Time", 16, 8),
        col("OK", 2, 9),
        col("Code", 4, 7),
        flex("Event", 14),
        col("Payload", 16, 3),
    ];
    table(frame, area, &cols, items, Some(w.cursor), theme, |e: &WebhookEvent| {
        vec![
            local(e.created_at, v.vcx.session.tz),
            if e.success { "✓".into() } else { "✗".into() },
            e.response
                .as_ref()
                .and_then(|r| r.code)
                .map_or(String::new(), |c| c.to_string()),
            clean(e.event.as_str()),
            clean(&e.payload),
        ]
    });
    let Some(e) = items.get(w.cursor.selected) else { return };
    let mut lines = Vec::new();
    match &e.response {
        None => lines.push(Line::styled("no response recorded", theme.dim())),
        Some(r) => {
            let code = r.code.map_or("?".into(), |c| c.to_string());
            let ok = if e.success { "✓ success" } else { "✗ failed" };
            lines.push(Line::from(vec![
                Span::styled("Code ", theme.accent()),
                Span::raw(format!("{code}  {ok}")),
            ]));
            lines.push(Line::styled("Headers", theme.accent()));
            match &r.headers {
                serde_json::Value::Object(h) if !h.is_empty() => {
                    for (k, v) in h {
                        let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        lines.push(Line::raw(format!("  {}: {}", clean(k), clean(&v))));
                    }
                }
                serde_json::Value::Null => lines.push(Line::styled("  (none)", theme.dim())),
                other => lines.push(Line::raw(format!("  {}", clean(&other.to_string())))),
            }
            lines.push(Line::styled("Body", theme.accent()));
            let body = serde_json::to_string_pretty(&r.body).unwrap_or_default();
            lines.extend(text_lines(&body, theme.normal()));
        }
    }
    let title = format!("Response to {}", clean(e.event.as_str()));
    detail(frame, a.detail, title, lines, theme);
}
