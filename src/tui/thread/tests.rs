//! The thread slice's tests: its transitions through the root's update
//! (update.rs) and its frames (view.rs).

mod funnel;
mod hyperlink;
mod note;
mod preview;
mod rich;
mod update;
mod view;
