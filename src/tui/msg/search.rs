//! A search's result, sent back by the blocking task that ran it.

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchDone {
    pub generation: u64,
    pub query: String,
    pub matches: Vec<u32>,
    /// Contacts the local index found (by uuid, best first): fields,
    /// notes and cached messages the rows' own text does not hold, and
    /// near misses of a typo. Listed before the rows' own matches.
    pub hits: Vec<String>,
    pub layout: u64,
    pub version: u64,
}
