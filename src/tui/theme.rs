//! Styles. 16-colour safe; with `NO_COLOR` every style is plain (only
//! bold/reverse/underline, which carry meaning without colour).

use ratatui::style::{Color, Modifier, Style};

/// The styles the views use. Copy it around freely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set (to anything non-empty).
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    /// Plain styles only (snapshots and NO_COLOR).
    pub fn plain() -> Theme {
        Theme { color: false }
    }

    fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }

    pub fn normal(&self) -> Style {
        Style::default()
    }
    /// Secondary text: timestamps, hints, counts.
    pub fn dim(&self) -> Style {
        if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        }
    }
    /// Titles, key names in help.
    pub fn accent(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    /// The selected row (reverse video reads without colour too).
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }
    /// The focused pane's border.
    pub fn border_focused(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
    pub fn border(&self) -> Style {
        self.fg(Color::DarkGray)
    }
    pub fn error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    pub fn success(&self) -> Style {
        self.fg(Color::Green)
    }
    pub fn warning(&self) -> Style {
        self.fg(Color::Yellow)
    }
    /// Messages the agent sent.
    pub fn sent(&self) -> Style {
        self.fg(Color::Blue)
    }
    /// Messages the customer sent.
    pub fn received(&self) -> Style {
        Style::default()
    }
    /// Internal notes.
    pub fn note(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::ITALIC)
    }
    /// Unread / new-message markers.
    pub fn unread(&self) -> Style {
        self.fg(Color::Magenta).add_modifier(Modifier::BOLD)
    }
}
