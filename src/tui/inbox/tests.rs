//! The inbox slice's tests: its frames (view.rs).

mod view;
mod waiting;
