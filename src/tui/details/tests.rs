//! The details slice's tests: its transitions through the root's update
//! (update.rs) and its panes as drawn (view.rs).

mod update;
mod view;
