//! Where each pane goes: shared by the root (page sizes, scrolling) and
//! every slice's view.

use ratatui::layout::{Constraint, Layout, Rect};

use super::pane::Pane;

/// Below this width one pane shows at a time.
pub const WIDE: u16 = 100;

/// Where each pane goes for a terminal of `width` x `height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub tabs: Option<Rect>,
    pub list: Option<Rect>,
    pub thread: Option<Rect>,
    pub details: Option<Rect>,
    pub bot: Option<Rect>,
    pub availability: Option<Rect>,
    pub toast: Option<Rect>,
    pub status: Rect,
}

impl Areas {
    /// Contact rows that fit in the list pane (borders, the views' strip
    /// and the header row excluded) of a `width` x `height` terminal.
    pub fn list_rows(&self, width: u16, height: u16) -> usize {
        let r = self.list.unwrap_or(Rect::new(0, 0, width, height.saturating_sub(4)));
        r.height.saturating_sub(4) as usize
    }
}

/// The layout, shared by `update` (page sizes, scrolling) and the views.
pub fn areas(full: Rect, wide: bool, focus: Pane, toast: bool) -> Areas {
    let bottom = if toast { 2 } else { 1 };
    let [main, bar] = Layout::vertical([Constraint::Min(1), Constraint::Length(bottom)]).areas(full);
    let (toast_area, status) = if toast {
        let [t, s] = Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).areas(bar);
        (Some(t), s)
    } else {
        (None, bar)
    };
    let mut a = Areas {
        tabs: None,
        list: None,
        thread: None,
        details: None,
        bot: None,
        availability: None,
        toast: toast_area,
        status,
    };
    if wide {
        let [l, t, d] = Layout::horizontal([
            Constraint::Percentage(44),
            Constraint::Percentage(32),
            Constraint::Min(24),
        ])
        .areas(main);
        let [det, bot, av] =
            Layout::vertical([Constraint::Min(5), Constraint::Length(5), Constraint::Length(5)]).areas(d);
        a.list = Some(l);
        a.thread = Some(t);
        a.details = Some(det);
        a.bot = Some(bot);
        a.availability = Some(av);
    } else {
        let [tabs, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(main);
        a.tabs = Some(tabs);
        match focus {
            Pane::List => a.list = Some(body),
            Pane::Thread => a.thread = Some(body),
            Pane::Details => {
                // One line each for the bot and my status (see
                // details::view::fit): at 80x24 the details need the rows.
                let [det, bot, av] =
                    Layout::vertical([Constraint::Min(5), Constraint::Length(3), Constraint::Length(3)]).areas(body);
                a.details = Some(det);
                a.bot = Some(bot);
                a.availability = Some(av);
            }
        }
    }
    a
}
