//! The contact list with the strip of views above it. Only the rows on
//! screen are formatted.

pub mod found;
pub mod tabs;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::state::InboxRef;
use super::state::contact_list::Row;
use crate::index::{Preview, Who};
use crate::text::columns::{Column, fit_columns};
use crate::text::truncate;
use crate::triage::{Thresholds, WaitLevel};
use crate::tui::shared::{Pane, ViewCx};
use crate::tui::theme::Theme;
use crate::tui::widgets::clean;
use crate::tui::widgets::{fit, relative};

/// Column widths for an inner width.
struct Cols {
    name: usize,
    /// The last message's first line (with the local index); 0: hidden.
    preview: usize,
    /// Who wrote last (‹ › ✎), with the local index.
    who: bool,
    source: usize,
    assignee: usize,
    /// The conversation's funnel, on wide lists only; 0: hidden.
    funnel: usize,
    tags: usize,
}

/// The list's inner width from which it shows the funnel column (the
/// list is 44% of a wide screen: from about 255 columns).
pub const FUNNEL_FROM: usize = 110;
/// The funnel column's width.
const FUNNEL_W: usize = 14;

fn cols(w: usize, previews: bool) -> Cols {
    // Fixed: cursor, marker and mark 3 (`▸●*`), the space after the name, time 4 and its
    // space, state 7, bot 1; with previews, who wrote last and a space.
    let fixed = if previews { 19 } else { 17 };
    // A wide list shows the funnel too, its column and the space after it.
    let funnel = if w >= FUNNEL_FROM { FUNNEL_W } else { 0 };
    let avail = w.saturating_sub(fixed + funnel + usize::from(funnel > 0));
    // The name is never hidden; tags go first, then the assignee, then the
    // source, when the width runs out (the CLI's tables follow one rule
    // too). With previews, the source, then the last message, go before
    // the assignee.
    let mut spec = vec![Column {
        want: 24,
        min: avail.min(14),
        keep: u8::MAX,
    }];
    if previews {
        // Triage order: who it is assigned to (customers may share a
        // name), then the last message, before the source and the tags.
        spec.push(Column {
            want: 30,
            min: 18,
            keep: 3,
        });
        spec.extend([Column::fixed(9, 2), Column::fixed(12, 4), Column::fixed(10, 1)]);
    } else {
        spec.extend([Column::fixed(9, 3), Column::fixed(12, 2), Column::fixed(10, 1)]);
    }
    let fitted = fit_columns(&spec, avail, 1);
    let width = |i: usize| fitted.get(i).copied().flatten().unwrap_or(0);
    let k = usize::from(previews);
    let mut c = Cols {
        name: width(0),
        preview: if previews { width(1) } else { 0 },
        who: previews,
        source: width(1 + k),
        assignee: width(2 + k),
        funnel,
        tags: width(3 + k),
    };
    // What is left widens the preview, else the tags, or the name when
    // they are hidden.
    let shown = fitted.iter().flatten().count();
    let used: usize = fitted.iter().flatten().sum::<usize>() + shown.saturating_sub(1);
    let rest = avail.saturating_sub(used);
    if c.preview > 0 {
        c.preview += rest;
    } else if c.tags > 0 {
        c.tags += rest;
    } else {
        c.name += rest;
    }
    c
}

/// The list pane. `sending` says whether a job of an action on many is in
/// flight on a contact (its row spins, as for a write of one).
pub fn render(st: InboxRef, vcx: &ViewCx, frame: &mut Frame, area: Rect, sending: &dyn Fn(&str) -> bool) {
    let theme = vcx.theme;
    let list = st.list;
    let mut title = format!("Contacts {}", list.store.len());
    if list.paging.loading.is_some() || list.paging.refreshing.is_some() {
        title.push(' ');
        title.push_str(vcx.spinner());
    } else if !list.paging.exhausted && !list.store.is_empty() {
        title.push('+');
    }
    if let Some(s) = &list.view.search
        && !s.query.is_empty()
    {
        title = if s.active() {
            format!("{title} · /{} {} found", clean(&s.matched), s.found())
        } else {
            format!("{title} · /{} …", clean(&s.query))
        };
        if s.active() && s.running {
            title.push_str(" …");
        }
    }
    // Conversations that came in above the first row shown: `g` goes up.
    if !list.view.new_above.is_empty() {
        title.push_str(&format!(" · ↑ {} new", list.view.new_above.len()));
    }
    let block = vcx.pane_block(Pane::List, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = inner.width as usize;
    let c = cols(w, st.sync.enabled());
    let mut lines = Vec::with_capacity(inner.height as usize);
    lines.push(tabs::strip(st.views, w, theme));
    let mut header = if c.who {
        format!("     {} ", fit("Name", c.name))
    } else {
        format!("   {} ", fit("Name", c.name))
    };
    if c.preview > 0 {
        header.push_str(&fit("Last message", c.preview));
        header.push(' ');
    }
    if c.source > 0 {
        header.push_str(&fit("Source", c.source));
        header.push(' ');
    }
    header.push_str("Last State  ");
    if c.assignee > 0 {
        header.push_str(&fit("Assignee", c.assignee));
        header.push(' ');
    }
    if c.funnel > 0 {
        header.push_str(&fit("Funnel", c.funnel));
        header.push(' ');
    }
    if c.tags > 0 {
        header.push_str(&fit("Tags", c.tags));
    }
    lines.push(Line::styled(truncate(&header, w).into_owned(), theme.dim()));
    // `/`'s lookup on the service takes the last row (above the query).
    let lookup = list.view.search.as_ref().and_then(|s| found::line(&s.lookup, vcx, w));
    let editing = list.view.search.as_ref().is_some_and(|s| s.editing);
    let below = lookup.as_ref().map_or(0, |_| 1 + usize::from(editing));
    let rows = (inner.height.saturating_sub(2) as usize).saturating_sub(below);
    let searching = list.view.searched().is_some();
    if let Some(why) = st
        .views
        .current()
        .why_empty(st.views.me.as_deref())
        .filter(|_| !searching)
    {
        for line in wrap_words(&clean(&why), w) {
            lines.push(Line::styled(line, theme.dim()));
        }
    } else if list.visible_len() == 0 && !list.store.is_empty() && !searching {
        let v = st.views.current();
        let msg = format!("nothing in {}: {}", clean(&v.name), v.filter.describe());
        lines.push(Line::styled(truncate(&msg, w).into_owned(), theme.dim()));
    }
    if list.store.is_empty() {
        let msg = match (&list.error, list.paging.loading.is_some()) {
            (Some(e), _) => format!("could not load contacts: {}", clean(e)),
            (None, true) => format!("{} loading contacts…", vcx.spinner()),
            (None, false) => "no contacts match".to_string(),
        };
        lines.push(Line::styled(msg, theme.dim()));
    }
    // The window may have shrunk since `update` placed it (a toast line).
    let (selected, len) = (list.view.selected, list.visible_len());
    let mut offset = list.view.offset.min(len.saturating_sub(1));
    if selected >= offset + rows.max(1) {
        offset = selected + 1 - rows.max(1);
    }
    // The found customer has the cursor until Up or Down picks a match.
    let found_first = list
        .view
        .search
        .as_ref()
        .is_some_and(|s| s.lookup.found_first().is_some());
    for r in offset..(offset + rows).min(len) {
        let Some(contact) = list.row(r) else { continue };
        let greyed = st.views.greyed.contains(&contact.uuid);
        lines.push(row(
            st,
            vcx,
            sending,
            contact,
            r == selected && !found_first,
            greyed,
            &c,
        ));
    }
    if let Some(l) = lookup {
        while lines.len() < 2 + rows {
            lines.push(Line::raw(""));
        }
        lines.push(l);
    }
    if let Some(s) = &list.view.search
        && s.editing
    {
        while lines.len() + 1 < inner.height as usize {
            lines.push(Line::raw(""));
        }
        lines.truncate(inner.height.saturating_sub(1) as usize);
        lines.push(Line::styled(format!("/{}▏", clean(&s.query)), theme.accent()));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

fn row(
    st: InboxRef,
    vcx: &ViewCx,
    sending: &dyn Fn(&str) -> bool,
    c: &Row,
    selected: bool,
    greyed: bool,
    cols: &Cols,
) -> Line<'static> {
    let theme = vcx.theme;
    let list = st.list;
    // Selection also shows as `▸`, so it reads without reverse video too.
    let cursor = Span::raw(if selected { "▸" } else { " " });
    // A write in flight (one, or a job of an action on many) spins; a
    // marked row shows `*` beside it, so marks read without colour too.
    let sending = sending(&c.uuid);
    let (glyph, style) = if list.pending.contains_key(&c.uuid) || sending {
        (vcx.spinner(), theme.warning())
    } else if c.has_new() {
        ("●", theme.unread())
    } else {
        (" ", theme.normal())
    };
    let marker = if st.marks.contains(&c.uuid) {
        vec![Span::styled(glyph, style), Span::styled("*", theme.accent())]
    } else if glyph == " " {
        vec![Span::raw("  ")]
    } else {
        vec![Span::styled(format!("{glyph} "), style)]
    };
    let preview = st.sync.previews.get(&*c.uuid);
    let mut spans = vec![cursor];
    spans.extend(marker);
    if cols.who {
        spans.push(who_glyph(preview, theme));
        spans.push(Span::raw(" "));
    }
    // A colleague on this conversation (through a hub): "dana viewing"
    // stands where the last message does, or after the name without
    // previews.
    // A colleague moved the conversation being read out of the view: its
    // kept row says where it went.
    let moved = st
        .views
        .moved
        .as_ref()
        .filter(|(u, _)| *u == c.uuid)
        .map(|(_, l)| clean(l));
    let here = moved.or_else(|| vcx.colleagues.label(&c.uuid, vcx.now).map(|l| clean(&l)));
    match here.as_deref().filter(|_| cols.preview == 0) {
        Some(h) if cols.name > 8 => {
            let hw = crate::tui::text::width(h).min(cols.name / 2);
            spans.push(Span::raw(fit(&clean(c.label()), cols.name - hw - 1)));
            spans.push(Span::raw(" "));
            spans.push(Span::styled(fit(h, hw), theme.accent()));
        }
        _ => spans.push(Span::raw(fit(&clean(c.label()), cols.name))),
    }
    spans.push(Span::raw(" "));
    if cols.preview > 0 {
        match &here {
            Some(h) => spans.push(Span::styled(fit(h, cols.preview), theme.accent())),
            None => {
                let text = preview.map(|p| clean(&p.text)).unwrap_or_default();
                // Waiting behind a bot's answer or a note: said first, so the
                // row does not read as answered.
                match preview.and_then(|p| p.waiting_now()).and_then(|w| w.behind) {
                    Some(b) if c.is_open() => {
                        let label = format!("{} · ", b.label());
                        let lw = crate::tui::text::width(&label).min(cols.preview);
                        spans.push(Span::styled(fit(&label, lw), theme.warning()));
                        spans.push(Span::styled(fit(&text, cols.preview - lw), theme.dim()));
                    }
                    _ => spans.push(Span::styled(fit(&text, cols.preview), theme.dim())),
                }
            }
        }
        spans.push(Span::raw(" "));
    }
    if cols.source > 0 {
        spans.push(Span::styled(fit(&clean(&c.source), cols.source), theme.dim()));
        spans.push(Span::raw(" "));
    }
    // An open conversation where the customer wrote last shows how long
    // they have waited, marked (`‹` says who wrote last without colour);
    // past `breach_after` a `!` follows it, so it reads without colour too.
    let open = c.is_open() || st.badges.has(&c.uuid, crate::tui::shared::badges::REOPENED.name);
    match preview.filter(|_| open).and_then(Preview::waiting_now) {
        Some(w) => {
            let since = w.since.or(c.last_activity());
            let level = wait_level(st.views.thresholds(), vcx.now, since);
            let (style, after) = match level {
                WaitLevel::Unrated | WaitLevel::Warn => (theme.warning(), " "),
                WaitLevel::Calm => (theme.normal(), " "),
                WaitLevel::Breach => (theme.error(), "!"),
            };
            spans.push(Span::styled(fit(&relative(vcx.now, since), 4), style));
            spans.push(Span::styled(after, style));
        }
        None => {
            spans.push(Span::styled(fit(&relative(vcx.now, c.last_activity()), 4), theme.dim()));
            spans.push(Span::raw(" "));
        }
    }
    // A badge (snoozed, back…) stands where the state does.
    spans.push(if let Some(b) = st.badges.of(&c.uuid).first() {
        Span::styled(fit(b.label, 7), theme.warning())
    } else if c.state_unknown {
        // Never "open": the list answer did not say (state unknown).
        Span::styled("unknown", theme.dim())
    } else if c.is_open() {
        Span::styled("open   ", theme.success())
    } else {
        Span::styled("closed ", theme.dim())
    });
    if cols.assignee > 0 {
        let who = c
            .assigned_user
            .as_deref()
            .map(|a| a.split('@').next().unwrap_or(a))
            .unwrap_or("—");
        spans.push(Span::raw(fit(&clean(who), cols.assignee)));
        spans.push(Span::raw(" "));
    }
    if cols.funnel > 0 {
        // The funnel's name as the service lists it (no emoji: its width
        // is the terminal's guess), else the start of its uuid.
        let name = match c.funnel() {
            Some(f) => match vcx.known.funnels.get(f) {
                Some((_, name)) if !name.trim().is_empty() => clean(name),
                _ => f.chars().take(8).collect(),
            },
            None => "—".to_string(),
        };
        spans.push(Span::styled(fit(&clean(&name), cols.funnel), theme.dim()));
        spans.push(Span::raw(" "));
    }
    if cols.tags > 0 {
        let tags = c
            .tags
            .iter()
            .map(|t| format!("#{}", clean(t)))
            .collect::<Vec<_>>()
            .join(" ");
        spans.push(Span::styled(fit(&tags, cols.tags), theme.accent()));
    }
    spans.push(Span::raw(if list.bots.get(&*c.uuid) == Some(&true) {
        "⚙"
    } else {
        " "
    }));
    // A row that left the view by the agent's own action, kept until the
    // selection moves: all of it greyed.
    if greyed {
        for s in &mut spans {
            s.style = theme.dim();
        }
    }
    let line = Line::from(spans);
    if selected { line.style(theme.selected()) } else { line }
}

/// Where a wait since `since` stands at `now` against `t`.
pub fn wait_level(
    t: Thresholds,
    now: chrono::DateTime<chrono::Utc>,
    since: Option<chrono::DateTime<chrono::Utc>>,
) -> WaitLevel {
    let waited = since.and_then(|s| (now - s).to_std().ok()).unwrap_or_default();
    t.level(waited)
}

/// `text` in lines of at most `w` columns, broken between words.
fn wrap_words(text: &str, w: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let wanted = if line.is_empty() { 0 } else { 1 } + crate::text::width(word);
        if !line.is_empty() && crate::text::width(&line) + wanted > w {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out.into_iter().map(|l| truncate(&l, w).into_owned()).collect()
}

/// Who wrote last: `‹` the customer, `›` an agent or bot, `✎` a note; a
/// blank until the last message is known. Behind a bot's answer the
/// customer is still owed one: `‹`.
fn who_glyph(preview: Option<&Preview>, theme: &Theme) -> Span<'static> {
    if preview
        .and_then(Preview::waiting_now)
        .is_some_and(|w| w.behind == Some(crate::index::Behind::Bot))
    {
        return Span::styled("‹", theme.warning());
    }
    match preview.and_then(|p| p.who) {
        Some(Who::Customer) => Span::styled("‹", theme.warning()),
        Some(Who::Agent) => Span::styled("›", theme.dim()),
        Some(Who::Note) => Span::styled("✎", theme.dim()),
        None => Span::raw(" "),
    }
}
