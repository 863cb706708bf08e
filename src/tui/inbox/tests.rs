//! The inbox slice's tests: its frames (view.rs).

mod assign_picker;
mod funnel;
mod lookup;
mod moved;
mod new_above;
mod state_unknown;
mod view;
mod waiting;
