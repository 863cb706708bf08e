//! Styles by name. Built-in themes (`dark`, the default, `light`,
//! `high-contrast`, `mono`) use the 16 basic colours only; a theme file
//! (TOML) starts from one of them and restyles any named style. `NO_COLOR`
//! drops every colour from whichever theme is chosen, keeping the
//! modifiers (reverse, bold, italic, underline), which is all `mono` uses:
//! selection, unread, errors, notes and marks stay distinguishable without
//! colour.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// The styles the views use. Copy it around freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    normal: Style,
    dim: Style,
    accent: Style,
    selected: Style,
    border_focused: Style,
    border: Style,
    error: Style,
    success: Style,
    warning: Style,
    sent: Style,
    received: Style,
    note: Style,
    unread: Style,
}

/// The built-in themes' names.
pub const BUILT_IN: &[&str] = &["dark", "light", "high-contrast", "mono"];

/// The style names a theme file may set.
pub const STYLE_NAMES: &[&str] = &[
    "normal",
    "dim",
    "accent",
    "selected",
    "border_focused",
    "border",
    "error",
    "success",
    "warning",
    "sent",
    "received",
    "note",
    "unread",
];

const fn fg(c: Color) -> Style {
    Style::new().fg(c)
}
const fn bold(s: Style) -> Style {
    s.add_modifier(Modifier::BOLD)
}

impl Theme {
    /// The default: the 16 basic colours, never as a background.
    pub fn dark() -> Theme {
        Theme {
            normal: Style::new(),
            dim: fg(Color::DarkGray),
            accent: bold(fg(Color::Cyan)),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            border_focused: bold(fg(Color::Cyan)),
            border: fg(Color::DarkGray),
            error: bold(fg(Color::Red)),
            success: fg(Color::Green),
            warning: fg(Color::Yellow),
            sent: fg(Color::Blue),
            received: Style::new(),
            note: fg(Color::Yellow).add_modifier(Modifier::ITALIC),
            unread: bold(fg(Color::Magenta)),
        }
    }

    /// For light backgrounds: no yellow or cyan text, which fade on white.
    pub fn light() -> Theme {
        Theme {
            accent: bold(fg(Color::Blue)),
            border_focused: bold(fg(Color::Blue)),
            warning: bold(fg(Color::Magenta)),
            sent: fg(Color::Blue),
            note: fg(Color::Magenta).add_modifier(Modifier::ITALIC),
            unread: bold(fg(Color::Red)),
            ..Theme::dark()
        }
    }

    /// Bright colours, bold where it helps, nothing dim.
    pub fn high_contrast() -> Theme {
        Theme {
            normal: Style::new(),
            dim: Style::new(),
            accent: bold(fg(Color::LightYellow)),
            selected: bold(Style::new().add_modifier(Modifier::REVERSED)),
            border_focused: bold(fg(Color::LightYellow)),
            border: Style::new(),
            error: bold(fg(Color::LightRed)).add_modifier(Modifier::UNDERLINED),
            success: bold(fg(Color::LightGreen)),
            warning: bold(fg(Color::LightYellow)),
            sent: bold(fg(Color::LightCyan)),
            received: Style::new(),
            note: fg(Color::LightYellow).add_modifier(Modifier::ITALIC),
            unread: bold(fg(Color::LightMagenta)).add_modifier(Modifier::UNDERLINED),
        }
    }

    /// No colour at all: meaning carried by reverse, bold, italic, underline.
    pub fn mono() -> Theme {
        Theme::dark().without_colour()
    }

    /// Plain styles only (snapshots and NO_COLOR): `mono`.
    pub fn plain() -> Theme {
        Theme::mono()
    }

    /// The default theme unless `NO_COLOR` is set (to anything non-empty).
    pub fn from_env() -> Theme {
        if no_color_env() { Theme::mono() } else { Theme::dark() }
    }

    /// The theme a config names: a built-in name, a theme file's path, or
    /// `None` for the default. `no_color` strips the colours.
    pub fn load(choice: Option<&str>, no_color: bool) -> Result<Theme, String> {
        let theme = match choice.map(str::trim) {
            None | Some("") => Theme::dark(),
            Some(name) => match built_in(name) {
                Some(t) => t,
                None if name.contains('/') || name.ends_with(".toml") => from_file(std::path::Path::new(name))?,
                None => {
                    return Err(format!(
                        "theme {name:?} is not one of {} nor a theme file's path",
                        BUILT_IN.join(", ")
                    ));
                }
            },
        };
        Ok(if no_color { theme.without_colour() } else { theme })
    }

    /// Every style with its colours dropped.
    pub fn without_colour(self) -> Theme {
        let strip = |s: Style| Style {
            fg: None,
            bg: None,
            underline_color: None,
            ..s
        };
        let mut t = self;
        for s in t.slots() {
            *s = strip(*s);
        }
        // Mono keeps notes and marks apart from plain text.
        t.note = t.note.add_modifier(Modifier::ITALIC);
        t.unread = t.unread.add_modifier(Modifier::BOLD);
        t.error = t.error.add_modifier(Modifier::BOLD);
        t
    }

    fn slots(&mut self) -> [&mut Style; 13] {
        [
            &mut self.normal,
            &mut self.dim,
            &mut self.accent,
            &mut self.selected,
            &mut self.border_focused,
            &mut self.border,
            &mut self.error,
            &mut self.success,
            &mut self.warning,
            &mut self.sent,
            &mut self.received,
            &mut self.note,
            &mut self.unread,
        ]
    }

    fn slot(&mut self, name: &str) -> Option<&mut Style> {
        let i = STYLE_NAMES.iter().position(|n| *n == name)?;
        self.slots().into_iter().nth(i)
    }

    pub fn normal(&self) -> Style {
        self.normal
    }
    /// Secondary text: timestamps, hints, counts.
    pub fn dim(&self) -> Style {
        self.dim
    }
    /// Titles, key names in help.
    pub fn accent(&self) -> Style {
        self.accent
    }
    /// The selected row (reverse video reads without colour too).
    pub fn selected(&self) -> Style {
        self.selected
    }
    /// The focused pane's border.
    pub fn border_focused(&self) -> Style {
        self.border_focused
    }
    pub fn border(&self) -> Style {
        self.border
    }
    pub fn error(&self) -> Style {
        self.error
    }
    pub fn success(&self) -> Style {
        self.success
    }
    pub fn warning(&self) -> Style {
        self.warning
    }
    /// Messages the agent sent.
    pub fn sent(&self) -> Style {
        self.sent
    }
    /// Messages the customer sent.
    pub fn received(&self) -> Style {
        self.received
    }
    /// Internal notes.
    pub fn note(&self) -> Style {
        self.note
    }
    /// Unread / new-message markers.
    pub fn unread(&self) -> Style {
        self.unread
    }
}

/// `NO_COLOR` set to anything non-empty (no-color.org).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

fn built_in(name: &str) -> Option<Theme> {
    match name {
        "dark" | "default" => Some(Theme::dark()),
        "light" => Some(Theme::light()),
        "high-contrast" => Some(Theme::high_contrast()),
        "mono" => Some(Theme::mono()),
        _ => None,
    }
}

/// One style in a theme file: `accent = { fg = "blue", bold = true }`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    bold: bool,
    #[serde(default)]
    italic: bool,
    #[serde(default)]
    underline: bool,
    #[serde(default)]
    reversed: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    /// The built-in theme to start from (default `dark`).
    base: Option<String>,
    #[serde(default)]
    styles: std::collections::BTreeMap<String, StyleSpec>,
}

/// A theme file:
///
/// ```toml
/// base = "light"
/// [styles]
/// accent = { fg = "blue", bold = true }
/// selected = { fg = "black", bg = "#ffd75f" }
/// ```
pub fn from_text(text: &str, shown: &str) -> Result<Theme, String> {
    let file: ThemeFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| format!(" line {}", text[..s.start.min(text.len())].matches('\n').count() + 1))
            .unwrap_or_default();
        format!("{shown}{line}: {}", e.message().trim())
    })?;
    let base = file.base.as_deref().unwrap_or("dark");
    let mut theme =
        built_in(base).ok_or_else(|| format!("{shown}: base {base:?} is not one of {}", BUILT_IN.join(", ")))?;
    for (name, spec) in &file.styles {
        let colour = |c: &Option<String>| -> Result<Option<Color>, String> {
            c.as_deref()
                .map(|c| Color::from_str(c).map_err(|_| format!("{shown}: {name}: {c:?} is not a colour")))
                .transpose()
        };
        let mut style = Style::new();
        if let Some(c) = colour(&spec.fg)? {
            style = style.fg(c);
        }
        if let Some(c) = colour(&spec.bg)? {
            style = style.bg(c);
        }
        for (on, m) in [
            (spec.bold, Modifier::BOLD),
            (spec.italic, Modifier::ITALIC),
            (spec.underline, Modifier::UNDERLINED),
            (spec.reversed, Modifier::REVERSED),
        ] {
            if on {
                style = style.add_modifier(m);
            }
        }
        let slot = theme
            .slot(name)
            .ok_or_else(|| format!("{shown}: unknown style {name:?} (known: {})", STYLE_NAMES.join(", ")))?;
        *slot = style;
    }
    Ok(theme)
}

fn from_file(path: &std::path::Path) -> Result<Theme, String> {
    // The path came from the config file or a flag: made inert before it
    // is quoted in a message.
    let shown = crate::text::sanitize_line(&path.display().to_string());
    let text = std::fs::read_to_string(path).map_err(|e| format!("the theme file {shown} cannot be read: {e}"))?;
    from_text(&text, &shown)
}

#[cfg(test)]
mod tests;
