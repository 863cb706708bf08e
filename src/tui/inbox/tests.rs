//! The inbox slice's tests: its frames (view.rs).

mod moved;
mod new_above;
mod view;
mod waiting;
