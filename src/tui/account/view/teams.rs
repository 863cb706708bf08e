//! The teams tab (with the opened team's record and members) and the plan
//! tab (with the funnels).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::columns::{col, flex};
use super::parts::{V, local, state, table};
use crate::api::{Team, TeamMember};
use crate::tui::account::state::{Account, AccountAreas, Remote};
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;

fn custom_status(m: &TeamMember) -> String {
    m.user_custom_status
        .as_ref()
        .map(|s| clean(&s.label()))
        .unwrap_or_default()
}

pub(super) fn teams(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let remote = &v.catalog.teams;
    let mut area = a.list;
    if state(v, remote, frame, &mut area, theme) {
        let items = remote.data.as_deref().unwrap_or_default();
        let cols = [flex("Team", 12), col("Default", 9, 5), col("Members", 7, 9)];
        table(frame, area, &cols, items, Some(acc.teams_cursor), theme, |t| {
            vec![
                clean(&t.name),
                if t.default { "★ default".into() } else { String::new() },
                t.members.map_or("?".into(), |n| format!("{n:>7}")),
            ]
        });
    }
    let title = match &acc.members.team {
        Some((_, name)) => format!("Members of {}", clean(name)),
        None => "Team (Enter or m shows its record and members)".into(),
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let mut inner = block.inner(a.detail);
    frame.render_widget(block, a.detail);
    if acc.members.team.is_none() {
        return;
    }
    if inner.height > 2 {
        let first = Rect::new(inner.x, inner.y, inner.width, 1);
        frame.render_widget(Paragraph::new(team_record(v, &acc.members.detail, theme)), first);
        inner.y += 1;
        inner.height -= 1;
    }
    if !state(v, &acc.members.list, frame, &mut inner, theme) {
        return;
    }
    let members = acc.members.list.data.as_deref().unwrap_or_default();
    let cols = [
        col("Status", 11, 9),
        flex("Name", 10),
        col("Email", 26, 5),
        col("Custom status", 16, 3),
    ];
    let shown = (inner.height as usize).saturating_sub(1);
    let mut area = inner;
    if members.len() > shown && inner.height > 2 {
        let more = Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1);
        let n = members.len() - (shown - 1);
        frame.render_widget(Paragraph::new(Line::styled(format!("  +{n} more"), theme.dim())), more);
        area.height -= 1;
    }
    table(frame, area, &cols, members, None, theme, |m| {
        let status = match m.available {
            Some(true) => "● available",
            Some(false) => "○ away",
            None => "?",
        };
        vec![status.into(), clean(&m.name), clean(&m.email), custom_status(m)]
    });
}

/// One line from GET /teams/:uuid: default or not, members, created.
fn team_record(v: &V, remote: &Remote<Team>, theme: &Theme) -> Line<'static> {
    match (&remote.data, &remote.error) {
        (_, Some(e)) => Line::styled(format!("✗ {}", clean(e)), theme.error()),
        (Some(t), None) => {
            let mut facts = Vec::new();
            if t.default {
                facts.push("★ default team".to_string());
            }
            if let Some(n) = t.members {
                facts.push(format!("{n} member{}", if n == 1 { "" } else { "s" }));
            }
            let created = local(t.created_at, v.vcx.session.tz);
            if !created.is_empty() {
                facts.push(format!("created {created}"));
            }
            Line::styled(facts.join(" · "), theme.accent())
        }
        (None, None) if remote.loading.is_some() => Line::styled(format!("{} loading…", v.spinner()), theme.dim()),
        (None, None) => Line::raw(""),
    }
}

pub(super) fn plan(v: &V, acc: &Account, frame: &mut Frame, a: &AccountAreas, theme: &Theme) {
    let (plan, funnels) = (&v.catalog.plan, &v.catalog.funnels);
    let mut lines = Vec::new();
    match (&plan.data, &plan.error) {
        (_, Some(e)) => lines.push(Line::styled(format!("✗ {}", clean(e)), theme.error())),
        (None, None) if plan.loading.is_some() => {
            lines.push(Line::styled(format!("{} loading…", v.spinner()), theme.dim()))
        }
        _ => {}
    }
    if let Some(p) = &plan.data {
        let label = |k: &str| Span::styled(format!("{k:<18}"), theme.accent());
        let teams: Vec<String> = p.teams.iter().map(|t| clean(&t.name)).collect();
        lines.push(Line::from(vec![label("Plan"), Span::raw(clean(&p.plan))]));
        lines.push(Line::from(vec![
            label("Included channels"),
            Span::raw(p.included_channels.to_string()),
        ]));
        lines.push(Line::from(vec![label("Licenses"), Span::raw(p.licenses.to_string())]));
        lines.push(Line::from(vec![
            label("Active users"),
            Span::raw(format!("{} of {}", p.active_users, p.licenses)),
        ]));
        lines.push(Line::from(vec![
            label("Teams"),
            Span::raw(format!("{}: {}", teams.len(), teams.join(", "))),
        ]));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), a.list);
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border())
        .title(Span::styled(" Funnels ", theme.accent()));
    let mut inner = block.inner(a.detail);
    frame.render_widget(block, a.detail);
    if !state(v, funnels, frame, &mut inner, theme) {
        return;
    }
    let funnels = funnels.data.as_deref().unwrap_or_default();
    let cols = [col("Pos", 4, 9), col("Emoji", 5, 8), flex("Name", 10)];
    table(frame, inner, &cols, funnels, Some(acc.funnels_cursor), theme, |f| {
        vec![format!("{:>4}", f.position), clean(&f.emoji), clean(&f.name)]
    });
}
