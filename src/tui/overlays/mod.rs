//! The overlays slice: help (`?`, generated from the keymap, scrolled by
//! the list's motions) and the command palette (`:`, every action of the
//! key table, fuzzy-matched).
//!
//! Which overlay is open is the root's `Overlay` enum (it also holds forms
//! and other slices' overlays); the root hands each variant's keys to the
//! slice that owns it. The palette only picks: it returns the `Action` the
//! root then runs.

mod help;
mod update;
mod view;

#[cfg(test)]
mod tests;

pub use help::{HelpLayout, HelpRow, help_rows, layout_for};
pub use update::{Picked, help_key, palette, palette_key, paste_into};
pub use view::{render_help, render_picker, settle_wide};

#[cfg(test)]
pub use help::all_lines;

/// The slice's state: help's first shown row (the palette is a
/// `FuzzyPicker` the root's `Overlay::Palette` holds).
pub type State = u16;
