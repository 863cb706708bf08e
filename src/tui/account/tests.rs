//! The account slice's tests: its transitions through the root's update
//! (update.rs, records.rs, webhooks.rs, forms.rs) and its frames (view.rs).

mod forms;
mod update;
mod view;
