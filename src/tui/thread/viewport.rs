//! Where the thread's view is and what it shows. Every step here walks only
//! the blocks between the view's edges and the target, so its cost is what
//! is on screen, however many messages are loaded.

use super::layout::{Kind, Row, day_line, header, local_date, side};
use super::state::{Geometry, Pos, Thread};

impl Thread {
    fn top_line_shown(&self) -> bool {
        self.loading_older.is_some() || self.older.is_none()
    }

    fn day_break(&self, i: usize, g: Geometry) -> bool {
        let here = local_date(self.messages[i].created_at, g.tz);
        here.is_some() && (i == 0 || local_date(self.messages[i - 1].created_at, g.tz) != here)
    }

    /// Lines above a message's header: start of conversation, day, new.
    fn lead(&self, i: usize, g: Geometry) -> usize {
        usize::from(i == 0 && self.top_line_shown())
            + usize::from(self.day_break(i, g))
            + usize::from(self.new_from == Some(i))
            + self.events_above(i, g).len()
    }

    /// Lines of message `i`'s block.
    pub fn height(&self, i: usize, g: Geometry) -> usize {
        let body = self.layout.with_body(&self.messages[i], g.width, |b| b.len());
        self.lead(i, g) + 1 + body + self.events_below(i, g).len()
    }

    /// Message `i`'s block as lines. `mark` is a sent message's delivery
    /// mark, `selected` draws the cursor, `spin` the spinner glyph.
    pub fn block_lines(&self, i: usize, g: Geometry, spin: &str, mark: Option<&str>, selected: bool) -> Vec<Row> {
        let m = &self.messages[i];
        let mut out = Vec::new();
        if i == 0
            && let Some(l) = self.top_line(spin)
        {
            out.push((Kind::Day, l, Vec::new()));
        }
        if self.day_break(i, g)
            && let Some(t) = m.created_at
        {
            out.push((Kind::Day, day_line(t, g.tz), Vec::new()));
        }
        // The conversation's timeline since the message before (dim rows).
        out.extend(self.events_above(i, g).into_iter().map(|r| (Kind::Day, r, Vec::new())));
        if self.new_from == Some(i) {
            out.push((Kind::NewMark, "── new ──".into(), Vec::new()));
        }
        let s = side(m);
        out.push((
            Kind::Header(s),
            header(m, g.width, g.tz, mark, selected, self.me.as_deref()),
            Vec::new(),
        ));
        self.layout.with_links(m, g.width, |b| {
            out.extend(b.lines.iter().enumerate().map(|(n, l)| {
                let links = b.links.iter().filter(|(at, _)| *at == n).map(|(_, s)| s.clone());
                (Kind::Body(s), l.clone(), links.collect())
            }))
        });
        out.extend(self.events_below(i, g).into_iter().map(|r| (Kind::Day, r, Vec::new())));
        out
    }

    /// The view's top when pinned to the newest message.
    fn pinned_top(&self, g: Geometry) -> Pos {
        let mut need = g.height;
        for i in (0..self.messages.len()).rev() {
            let h = self.height(i, g);
            if h >= need {
                return Pos {
                    block: i,
                    skip: h - need,
                };
            }
            need -= h;
        }
        Pos { block: 0, skip: 0 }
    }

    /// The view's top as drawn.
    pub fn view_top(&self, g: Geometry) -> Pos {
        match self.top {
            Some(p) if self.fills_screen(p, g) => p,
            _ => self.pinned_top(g),
        }
    }

    /// Whether more than a screen of lines lies from `p` to the end.
    fn fills_screen(&self, p: Pos, g: Geometry) -> bool {
        let mut n = 0;
        for i in p.block..self.messages.len() {
            n += self.height(i, g).saturating_sub(if i == p.block { p.skip } else { 0 });
            if n > g.height {
                return true;
            }
        }
        false
    }

    /// Pins the view to the newest when no more than a screen is left
    /// below its top; keeps the top inside its block.
    fn settle(&mut self, g: Geometry) {
        let Some(p) = self.top else { return };
        if p.block >= self.messages.len() {
            self.top = None;
            return;
        }
        let p = Pos {
            block: p.block,
            skip: p.skip.min(self.height(p.block, g).saturating_sub(1)),
        };
        self.top = self.fills_screen(p, g).then_some(p);
    }

    /// Moves the view `n` lines towards older messages.
    pub fn scroll_up(&mut self, mut n: usize, g: Geometry) {
        if self.messages.is_empty() {
            return;
        }
        let mut p = self.view_top(g);
        loop {
            if p.skip >= n {
                p.skip -= n;
                break;
            }
            n -= p.skip;
            p.skip = 0;
            if p.block == 0 {
                break;
            }
            p.block -= 1;
            p.skip = self.height(p.block, g);
        }
        self.top = Some(p);
        self.settle(g);
    }

    /// Moves the view `n` lines towards newer messages.
    pub fn scroll_down(&mut self, n: usize, g: Geometry) {
        let Some(mut p) = self.top else { return };
        p.skip += n;
        while p.block + 1 < self.messages.len() {
            let h = self.height(p.block, g);
            if p.skip < h {
                break;
            }
            p.skip -= h;
            p.block += 1;
        }
        self.top = Some(p);
        self.settle(g);
    }

    /// Scrolls as little as needed for message `c`'s block to be on screen
    /// (its top, when it is taller than the screen).
    pub fn reveal(&mut self, c: usize, g: Geometry) {
        if c >= self.messages.len() {
            return;
        }
        let p = self.view_top(g);
        if c < p.block || (c == p.block && p.skip > 0) {
            self.top = Some(Pos { block: c, skip: 0 });
            self.settle(g);
            return;
        }
        let mut n = 0;
        for i in p.block..=c {
            n += self.height(i, g).saturating_sub(if i == p.block { p.skip } else { 0 });
            if n > g.height {
                break;
            }
        }
        if n <= g.height {
            return; // already on screen
        }
        let hc = self.height(c, g);
        let mut top = Pos { block: c, skip: 0 };
        if hc < g.height {
            let mut need = g.height - hc;
            top = Pos { block: 0, skip: 0 };
            for j in (0..c).rev() {
                let h = self.height(j, g);
                if h >= need {
                    top = Pos {
                        block: j,
                        skip: h - need,
                    };
                    break;
                }
                need -= h;
            }
        }
        self.top = Some(top);
        self.settle(g);
    }

    /// The block holding the line `row` lines below the view's top.
    pub fn block_at_row(&self, row: usize, g: Geometry) -> Option<usize> {
        let p = self.view_top(g);
        let mut left = row + p.skip;
        for i in p.block..self.messages.len() {
            let h = self.height(i, g);
            if left < h {
                return Some(i);
            }
            left -= h;
        }
        self.messages.len().checked_sub(1)
    }

    /// Whether the view shows the oldest loaded message's block top.
    pub fn at_oldest(&self, g: Geometry) -> bool {
        self.view_top(g) == Pos { block: 0, skip: 0 }
    }

    /// The screen's lines (without the composer's outbox): `focused` marks
    /// the selected message. `mark` gives a sent message's delivery mark.
    pub fn visible_lines(
        &self,
        g: Geometry,
        spin: &str,
        focused: bool,
        mark: impl Fn(&str) -> Option<String>,
        outbox: Vec<(Kind, String)>,
    ) -> Vec<Row> {
        let outbox: Vec<Row> = outbox.into_iter().map(|(k, l)| (k, l, Vec::new())).collect();
        let sel = if focused { self.selected() } else { None };
        let block = |i: usize| {
            let m = self.messages[i].uuid.as_deref().and_then(&mark);
            self.block_lines(i, g, spin, m.as_deref(), sel == Some(i))
        };
        if self.messages.is_empty() {
            let mut all: Vec<Row> = self
                .top_line(spin)
                .map(|l| (Kind::Day, l, Vec::new()))
                .into_iter()
                .collect();
            all.extend(outbox);
            return bottom(all, g.height);
        }
        if let Some(p) = self.top
            && self.fills_screen(p, g)
        {
            let mut all = Vec::new();
            for i in p.block..self.messages.len() {
                let lines = block(i);
                let skip = if i == p.block { p.skip.min(lines.len()) } else { 0 };
                all.extend(lines.into_iter().skip(skip));
                if all.len() >= g.height {
                    break;
                }
            }
            all.truncate(g.height);
            return all;
        }
        // Pinned: newest at the bottom, the outbox under it.
        let mut blocks = vec![outbox];
        let mut n = blocks[0].len();
        for i in (0..self.messages.len()).rev() {
            if n >= g.height {
                break;
            }
            let b = block(i);
            n += b.len();
            blocks.push(b);
        }
        bottom(blocks.into_iter().rev().flatten().collect(), g.height)
    }
}

/// The last `h` lines, padded at the top: a short thread sits on the bottom.
fn bottom(mut all: Vec<Row>, h: usize) -> Vec<Row> {
    if all.len() > h {
        all.drain(..all.len() - h);
    }
    let pad = h - all.len();
    all.splice(0..0, std::iter::repeat_n((Kind::Day, String::new(), Vec::new()), pad));
    all
}
