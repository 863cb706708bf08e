//! Finding a contact that a failed create may still have made: how far
//! to look and how phone numbers compare.

/// How many pages of GET /contacts (newest activity first) are searched.
pub const FIND_PAGES: usize = 5;

/// Phone numbers compared by their digits and a leading `+`.
pub fn same_number(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.trim()
            .chars()
            .enumerate()
            .filter(|(i, c)| c.is_ascii_digit() || (*i == 0 && *c == '+'))
            .map(|(_, c)| c)
            .collect()
    };
    let (a, b) = (norm(a), norm(b));
    !a.trim_start_matches('+').is_empty() && a == b
}
