//! The thread slice's tests: its transitions through the root's update
//! (update.rs) and its frames (view.rs).

mod note;
mod rich;
mod update;
mod view;
