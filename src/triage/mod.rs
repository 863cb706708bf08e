//! Triage: views of the work (Mine, Unassigned, Waiting, Open, All, and the
//! agent's own from the config file), their counts, and actions on many
//! contacts at once.
//!
//! The matching is independent of SQLite: a [`ViewFilter`] is a function
//! over [`Facts`], a plain struct built from an [`api::Contact`] and its
//! last-message [`Preview`]. The commands build facts from the local index;
//! the TUI can build them from its in-memory rows.
//!
//! [`api::Contact`]: crate::api::Contact
//! [`Preview`]: crate::index::Preview

pub mod bulk;
mod count;
mod duration;
mod facts;
pub mod history;
pub mod owner;
pub mod undo;
mod view;
pub mod write;

pub use count::{Keyed, abbreviate_count, count_views, select, sort_positions};
pub use duration::{format_duration, parse_duration};
pub use facts::{Facts, Subject, contains_ci, field_is, reopened_by_customer, same};
pub use view::{
    Assignee, BREACHING, Breach, SET_EMAIL, SHORT_MAX, Sort, State, Thresholds, View, ViewFilter, WaitLevel,
    breaching_view, breaching_view_of, builtin_views, find_view, short_name,
};

#[cfg(test)]
mod tests;
