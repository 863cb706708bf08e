//! Fuzzy ranking (nucleo-matcher) and a standalone fuzzy picker overlay used
//! by the command palette, the custom-status picker and quick choices.

use std::cell::RefCell;

use crossterm::event::{KeyEvent, KeyEventKind};
use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::input::LineInput;
use crate::tui::keymap::{Keymap, Mode, ModeAction as M};
use crate::tui::text::{clean_line, truncate, width};
use crate::tui::theme::Theme;

thread_local! {
    // Matcher::new allocates its scratch space; one per thread is reused by
    // every call so a search over 100k contacts allocates once.
    static MATCHER: RefCell<Matcher> = RefCell::new(Matcher::new(Config::DEFAULT));
}

/// Ranks haystacks against a fuzzy query (nucleo-matcher, smart case);
/// returns indices best first (ties keep their order); an empty or blank
/// query returns all indices in order.
pub fn fuzzy_filter<'a>(query: &str, haystacks: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    if query.trim().is_empty() {
        return haystacks.into_iter().enumerate().map(|(i, _)| i).collect();
    }
    let pattern = Pattern::new(query, CaseMatching::Smart, Normalization::Smart, AtomKind::Fuzzy);
    MATCHER.with(|m| {
        let mut matcher = m.borrow_mut();
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, usize)> = haystacks
            .into_iter()
            .enumerate()
            .filter_map(|(i, h)| pattern.score(Utf32Str::new(h, &mut buf), &mut matcher).map(|s| (s, i)))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    })
}

/// (name score, description score, score of both): `None` is no match.
type NamedScore = (Option<u32>, Option<u32>, u32);

/// Ranks (name, description) pairs: an item matches when the query matches
/// `name description`; matches on the name come before matches only in the
/// description, so `tag` puts `tags` above `filter` (whose help mentions
/// tags). Sorted by (name score, description score, whole score), best first.
pub fn fuzzy_rank_named<'a>(query: &str, items: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<usize> {
    let items: Vec<(&str, &str)> = items.into_iter().collect();
    if query.trim().is_empty() {
        return (0..items.len()).collect();
    }
    let pattern = Pattern::new(query, CaseMatching::Smart, Normalization::Smart, AtomKind::Fuzzy);
    MATCHER.with(|m| {
        let mut matcher = m.borrow_mut();
        let mut buf = Vec::new();
        let mut score = |h: &str| pattern.score(Utf32Str::new(h, &mut buf), &mut matcher);
        let mut scored: Vec<(NamedScore, usize)> = items
            .iter()
            .enumerate()
            .filter_map(|(i, (name, desc))| {
                let whole = score(&format!("{name} {desc}"))?;
                Some(((score(name), score(desc), whole), i))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    })
}

/// One entry of a picker: what is shown, a dim detail, and the key returned.
#[derive(Clone, Debug, PartialEq)]
pub struct PickItem {
    pub label: String,
    pub detail: String,
    pub key: String,
}

/// What a key did to a picker.
#[derive(Clone, Debug, PartialEq)]
pub enum PickOutcome {
    Pending,
    Cancelled,
    Chosen(String),
}

/// A titled list of items filtered as the user types.
#[derive(Clone, Debug)]
pub struct FuzzyPicker {
    title: String,
    items: Vec<PickItem>,
    query: LineInput,
    /// Indices into `items`, best first.
    matches: Vec<usize>,
    cursor: usize,
}

impl FuzzyPicker {
    pub fn new(title: impl Into<String>, items: Vec<PickItem>) -> FuzzyPicker {
        let matches = (0..items.len()).collect();
        FuzzyPicker {
            title: title.into(),
            items,
            query: LineInput::default(),
            matches,
            cursor: 0,
        }
    }

    /// The text typed so far.
    pub fn query(&self) -> &str {
        self.query.value()
    }

    /// The key of the highlighted item.
    pub fn highlighted(&self) -> Option<&str> {
        self.matches.get(self.cursor).map(|&i| self.items[i].key.as_str())
    }

    /// Puts the highlight on the item with `key` (e.g. the current choice).
    pub fn highlight(&mut self, key: &str) {
        if let Some(pos) = self.matches.iter().position(|&i| self.items[i].key == key) {
            self.cursor = pos;
        }
    }

    fn refilter(&mut self) {
        self.matches = fuzzy_rank_named(
            self.query.value(),
            self.items.iter().map(|i| (i.label.as_str(), i.detail.as_str())),
        );
        self.cursor = 0;
    }

    /// A key, looked up in `keys`: `picker.*` (move, choose, cancel), then
    /// `text.*` and typing, which edit the filter.
    pub fn handle_key(&mut self, keys: &Keymap, key: KeyEvent) -> PickOutcome {
        if key.kind == KeyEventKind::Release {
            return PickOutcome::Pending;
        }
        let last = self.matches.len().saturating_sub(1);
        match keys.mode_action_for(Mode::Picker, &key) {
            Some(M::Cancel) => return PickOutcome::Cancelled,
            Some(M::Choose) => {
                if let Some(k) = self.highlighted() {
                    return PickOutcome::Chosen(k.to_string());
                }
            }
            Some(M::Up) => self.cursor = self.cursor.saturating_sub(1),
            Some(M::Down) => self.cursor = (self.cursor + 1).min(last),
            Some(M::PageUp) => self.cursor = self.cursor.saturating_sub(10),
            Some(M::PageDown) => self.cursor = (self.cursor + 10).min(last),
            _ => {
                if self.query.handle_key(keys, key) {
                    self.refilter();
                }
            }
        }
        PickOutcome::Pending
    }

    /// Bracketed paste goes into the query.
    pub fn handle_paste(&mut self, text: &str) {
        self.query.insert_str(text);
        self.refilter();
    }

    /// Draws a centred overlay inside `area`, clearing behind itself.
    pub fn render(&self, frame: &mut Frame, area: Rect, theme: &Theme, keys: &crate::tui::keymap::Keymap) {
        let widest = self
            .items
            .iter()
            .map(|i| width(&clean_line(&i.label)) + width(&clean_line(&i.detail)) + 4)
            .max()
            .unwrap_or(0)
            .max(width(&clean_line(&self.title)) + 4)
            .max(48);
        let w = (widest as u16 + 2)
            .min(area.width.saturating_sub(2).max(area.width.min(20)))
            .min(area.width);
        let list_max = if area.height >= 30 { 15 } else { 8 };
        let rows = self.matches.len().clamp(1, list_max) as u16;
        let h = (rows + 4).min(area.height);
        let rect = crate::tui::widgets::centered(area, w, h);
        frame.render_widget(Clear, rect);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border_focused())
            .title(Span::styled(
                format!(" {} ", truncate(&clean_line(&self.title), w as usize)),
                theme.accent(),
            ));
        let inner = block.inner(rect);
        frame.render_widget(block, rect);
        if inner.height == 0 || inner.width == 0 {
            return;
        }
        let cols = inner.width as usize;
        // Query line
        let prompt = "› ";
        let (qline, _) = self.query.view(cols.saturating_sub(2), theme.normal());
        let mut spans = vec![Span::styled(prompt, theme.accent())];
        if self.query.value().is_empty() {
            spans.push(Span::styled(
                truncate("type to filter", cols.saturating_sub(2)).into_owned(),
                theme.dim(),
            ));
        } else {
            spans.extend(qline.spans);
        }
        frame.render_widget(Paragraph::new(Line::from(spans)), Rect { height: 1, ..inner });
        let list_h = inner.height.saturating_sub(2) as usize;
        let list_area = Rect {
            y: inner.y + 1,
            height: list_h as u16,
            ..inner
        };
        if self.matches.is_empty() {
            frame.render_widget(Paragraph::new(Span::styled("no match", theme.dim())), list_area);
        } else {
            let start = crate::tui::widgets::window_start(self.cursor, self.matches.len(), list_h);
            let lines: Vec<Line> = self.matches[start..]
                .iter()
                .take(list_h)
                .enumerate()
                .map(|(n, &i)| {
                    let item = &self.items[i];
                    let selected = start + n == self.cursor;
                    let label = clean_line(&item.label);
                    let detail = clean_line(&item.detail);
                    let label = truncate(&label, cols.saturating_sub(2)).into_owned();
                    let room = cols.saturating_sub(width(&label) + 4);
                    let mut spans = vec![Span::raw(if selected { "▸ " } else { "  " }), Span::raw(label)];
                    if room > 1 && !detail.is_empty() {
                        spans.push(Span::raw("  "));
                        spans.push(Span::styled(truncate(&detail, room).into_owned(), theme.dim()));
                    }
                    let line = Line::from(spans);
                    if selected { line.style(theme.selected()) } else { line }
                })
                .collect();
            frame.render_widget(Paragraph::new(lines), list_area);
        }
        let k = |action| keys.mode_key(crate::tui::keymap::Mode::Picker, action);
        use crate::tui::keymap::ModeAction as M;
        let footer = format!(
            "{}/{} · {}{} move · {} choose · {} cancel",
            self.matches.len(),
            self.items.len(),
            k(M::Up),
            k(M::Down),
            k(M::Choose),
            k(M::Cancel)
        );
        let footer_area = Rect {
            y: inner.y + inner.height - 1,
            height: 1,
            ..inner
        };
        if inner.height >= 3 {
            frame.render_widget(
                Paragraph::new(Span::styled(truncate(&footer, cols).into_owned(), theme.dim())),
                footer_area,
            );
        }
    }
}

#[cfg(test)]
mod tests;
