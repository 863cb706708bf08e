//! The overlays slice's tests: help and the palette through the root's
//! update (update.rs) and their frames (view.rs). Help's layout is tested
//! beside it (help/tests.rs).

mod update;
mod view;
