//! The compose slice's tests: its transitions through the root's update
//! (update.rs) and its frames (view.rs).

mod attach;
mod drafts;
mod own;
mod preview;
mod snippets;
mod update;
mod view;
