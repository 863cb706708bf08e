//! `/` over the loaded contacts. `funnel:NAME` in the query keeps the
//! conversations in a funnel whose name starts with NAME (any case; the
//! start of its uuid too, as the list shows an unknown one); the other
//! words are matched as usual, and with none every conversation of the
//! funnel is listed. Matching runs off the UI thread: `update`
//! hands a [`SearchJob`] (the query and a shared snapshot of the haystacks)
//! to the effect runner, which runs it on tokio's blocking pool; the
//! [`SearchDone`] comes back as a message tagged with the query's
//! generation, and an older generation's result is dropped. A query that
//! extends the last one narrows the last matches instead of scanning all.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::store::{FUNNEL_MARK, Haystacks};
pub use crate::tui::inbox::msg::SearchDone;
use crate::tui::widgets::thousands;

/// The search the list shows.
#[derive(Debug, Clone, Default)]
pub struct Search {
    /// What is typed.
    pub query: String,
    /// The query `matches` answer (behind `query` while a search runs).
    pub matched: String,
    /// Row numbers in the store, best first.
    pub matches: Vec<u32>,
    /// The index's answer hit its cap: there may be more than `matches`.
    pub capped: bool,
    /// How many the index matched in all, when it hit its cap and said.
    pub total: Option<usize>,
    /// True while the query is being typed.
    pub editing: bool,
    /// Bumped with each new query or store change searched.
    pub generation: u64,
    /// A search of `generation` is running.
    pub running: bool,
    /// The next result moves the selection to the best match (the query
    /// changed), rather than keeping the selected contact.
    pub to_top: bool,
    /// Store layout and version `matches` were computed on.
    pub layout: u64,
    pub version: u64,
    /// The newest generation: a superseded run sees it and stops early.
    pub latest: Arc<AtomicU64>,
    /// The query looked up on the service (a phone number or a bsuid).
    pub lookup: super::lookup::Lookup,
    /// The funnels `funnel:` names (by uuid), when the query has it.
    pub funnels: Option<Funnels>,
}

/// The uuids of the funnels a query's `funnel:` names.
pub type Funnels = Arc<[String]>;

/// The prefix `funnel:` filters on.
const FUNNEL: &str = "funnel:";

/// The query's `funnel:` prefix (the last one), if it has one.
fn funnel_word(query: &str) -> Option<&str> {
    query
        .split_whitespace()
        .filter(|w| w.get(..FUNNEL.len()).is_some_and(|p| p.eq_ignore_ascii_case(FUNNEL)))
        .map(|w| &w[FUNNEL.len()..])
        .next_back()
}

/// The query without its `funnel:` words: what is matched as text (and
/// what the local index is asked for).
pub fn words_of(query: &str) -> String {
    if funnel_word(query).is_none() {
        return query.to_string();
    }
    query
        .split_whitespace()
        .filter(|w| !w.get(..FUNNEL.len()).is_some_and(|p| p.eq_ignore_ascii_case(FUNNEL)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The funnels `query`'s `funnel:NAME` names among `known` (uuid → (emoji,
/// name)): those whose name, or uuid, starts with NAME, in any case. `None`
/// when the query has no `funnel:`; an empty list when no funnel matches.
pub fn funnel_filter(query: &str, known: &std::collections::BTreeMap<String, (String, String)>) -> Option<Funnels> {
    let name = funnel_word(query)?.to_lowercase();
    let starts = |s: &str| s.to_lowercase().starts_with(&name);
    Some(
        known
            .iter()
            .filter(|(uuid, (_, n))| starts(n.trim()) || starts(uuid))
            .map(|(uuid, _)| uuid.clone())
            .collect(),
    )
}

/// Whether a row in `funnel` passes `filter`.
pub fn admits(filter: Option<&Funnels>, funnel: Option<&str>) -> bool {
    match filter {
        None => true,
        Some(set) => funnel.is_some_and(|f| set.iter().any(|u| u == f)),
    }
}

impl Search {
    /// True when the list shows matches rather than every contact.
    pub fn active(&self) -> bool {
        !self.query.is_empty() && !self.matched.is_empty()
    }

    /// A new generation; older runs stop at their next check.
    pub fn next_generation(&mut self) -> u64 {
        self.generation += 1;
        self.latest.store(self.generation, Ordering::Relaxed);
        self.generation
    }

    /// How many were found, in words: `12`; when the index's answer hit
    /// its cap, `200 of 1,234` (how many it matched in all), or `200+`
    /// when it did not say. Rows that already hold every match the index
    /// counted (the whole account loaded) are a plain count.
    pub fn found(&self) -> String {
        let n = self.matches.len();
        let shown = thousands(n as u64);
        match (self.capped, self.total) {
            (true, Some(total)) if total > n => format!("{shown} of {}", thousands(total as u64)),
            (true, None) => format!("{shown}+"),
            _ => shown,
        }
    }

    /// The rows a search for `query` may be narrowed to: the last matches,
    /// when `query` only adds letters or digits to what they answer and
    /// the store has not changed since.
    pub fn narrowable(&self, query: &str, layout: u64, version: u64) -> Option<Vec<u32>> {
        let added = query.strip_prefix(self.matched.as_str())?;
        let plain = !self.matched.is_empty() && added.chars().all(char::is_alphanumeric);
        (plain && self.layout == layout && self.version == version).then(|| self.matches.clone())
    }
}

/// One run of the matcher, sent to the blocking pool.
#[derive(Clone)]
pub struct SearchJob {
    pub generation: u64,
    pub query: String,
    pub hay: Haystacks,
    /// Search only these rows (narrowing), else all.
    pub within: Option<Vec<u32>>,
    pub layout: u64,
    pub version: u64,
    pub latest: Arc<AtomicU64>,
    /// `funnel:`'s funnels: only their rows match.
    pub funnels: Option<Funnels>,
}

impl std::fmt::Debug for SearchJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchJob")
            .field("generation", &self.generation)
            .field("query", &self.query)
            .field("rows", &self.hay.len())
            .field("narrowed", &self.within.as_ref().map(Vec::len))
            .field("funnels", &self.funnels)
            .finish()
    }
}

impl PartialEq for SearchJob {
    fn eq(&self, other: &Self) -> bool {
        (
            self.generation,
            &self.query,
            &self.within,
            self.layout,
            self.version,
            &self.funnels,
        ) == (
            other.generation,
            &other.query,
            &other.within,
            other.layout,
            other.version,
            &other.funnels,
        ) && Arc::ptr_eq(&self.hay, &other.hay)
    }
}

thread_local! {
    // Matcher::new allocates its scratch space: one per blocking thread.
    static MATCHER: RefCell<Matcher> = RefCell::new(Matcher::new(Config::DEFAULT));
}

/// How many rows are matched between checks for a newer query.
const CHECK_EVERY: usize = 2048;

/// Rows per thread below which matching stays on one thread.
const PARALLEL_FROM: usize = 16_384;

impl SearchJob {
    /// Matches (nucleo, smart case), best first, ties in list order;
    /// `None` when a newer query made this one stale on the way. A long
    /// list is matched on every core but one (in chunks of rows, merged).
    pub fn run(self) -> Option<SearchDone> {
        let pattern = Pattern::new(
            &words_of(&self.query),
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        let rows: Vec<u32> = match &self.within {
            Some(w) => w.clone(),
            None => (0..self.hay.len() as u32).collect(),
        };
        // One core stays free for the UI thread, so the typed character
        // never waits for the CPU.
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let threads = cores.saturating_sub(1).min(rows.len() / PARALLEL_FROM).max(1);
        let mut scored: Vec<(u32, u32)> = if threads == 1 {
            self.score(&pattern, &rows)?
        } else {
            let chunk = rows.len().div_ceil(threads);
            let parts: Vec<Option<Vec<(u32, u32)>>> = std::thread::scope(|scope| {
                let handles: Vec<_> = rows
                    .chunks(chunk)
                    .map(|part| scope.spawn(|| self.score(&pattern, part)))
                    .collect();
                handles.into_iter().map(|h| h.join().ok().flatten()).collect()
            });
            let mut all = Vec::new();
            for part in parts {
                all.extend(part?);
            }
            all
        };
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        Some(SearchDone {
            generation: self.generation,
            query: self.query,
            matches: scored.into_iter().map(|(_, i)| i).collect(),
            hits: Vec::new(),
            total: None,
            layout: self.layout,
            version: self.version,
        })
    }

    /// (score, row) of the rows in `rows` that match; `None` when a newer
    /// query made this one stale on the way.
    fn score(&self, pattern: &Pattern, rows: &[u32]) -> Option<Vec<(u32, u32)>> {
        let mut scored = Vec::new();
        let stale = MATCHER.with(|m| {
            let mut matcher = m.borrow_mut();
            let mut buf = Vec::new();
            for (n, &i) in rows.iter().enumerate() {
                if n % CHECK_EVERY == 0 && self.latest.load(Ordering::Relaxed) != self.generation {
                    return true;
                }
                let Some(h) = self.hay.get(i as usize) else { continue };
                let (words, funnel) = match h.split_once(FUNNEL_MARK) {
                    Some((w, f)) => (w, Some(f)),
                    None => (&**h, None),
                };
                if !admits(self.funnels.as_ref(), funnel) {
                    continue;
                }
                if pattern.atoms.is_empty() {
                    scored.push((0, i));
                } else if let Some(score) = pattern.score(Utf32Str::new(words, &mut buf), &mut matcher) {
                    scored.push((score, i));
                }
            }
            false
        });
        (!stale).then_some(scored)
    }
}

#[cfg(test)]
mod tests;
