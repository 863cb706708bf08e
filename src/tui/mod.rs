//! The terminal app (issue 4).

pub mod form;
pub mod text;
pub mod theme;

use crate::config::GlobalArgs;

/// Opens the TUI: the configured account, or the embedded demo server when
/// no key is configured or `demo` is set. Errors before the UI starts come
/// back as one clear line for main to print.
pub async fn run(global: GlobalArgs, demo: bool) -> color_eyre::Result<()> {
    let _ = (global, demo);
    todo!()
}
