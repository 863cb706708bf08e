//! The account overlay (`A`): templates, channels, teams, the plan and the
//! webhook log, one tab each. Plain data; `update::account` changes it.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::api::{Channel, EventQuery, Funnel, Plan, Team, TeamMember, Template, WebhookEvent};
use crate::tui::form::Form;
use crate::tui::msg::ReqId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountTab {
    Templates,
    Channels,
    Teams,
    Plan,
    Webhooks,
}

impl AccountTab {
    pub const ALL: [AccountTab; 5] = [
        AccountTab::Templates,
        AccountTab::Channels,
        AccountTab::Teams,
        AccountTab::Plan,
        AccountTab::Webhooks,
    ];
    pub fn title(self) -> &'static str {
        match self {
            AccountTab::Templates => "Templates",
            AccountTab::Channels => "Channels",
            AccountTab::Teams => "Teams",
            AccountTab::Plan => "Plan",
            AccountTab::Webhooks => "Webhooks",
        }
    }
    pub fn index(self) -> usize {
        AccountTab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// Something fetched: absent until the first answer, the error of the last
/// failed fetch, and the id of the fetch in flight (results with another id
/// are stale and dropped).
#[derive(Debug, Clone)]
pub struct Remote<T> {
    pub data: Option<T>,
    pub error: Option<String>,
    pub loading: Option<ReqId>,
}

impl<T> Default for Remote<T> {
    fn default() -> Self {
        Remote {
            data: None,
            error: None,
            loading: None,
        }
    }
}

impl<T> Remote<T> {
    /// Never asked for yet.
    pub fn untouched(&self) -> bool {
        self.data.is_none() && self.error.is_none() && self.loading.is_none()
    }
}

/// A selection in a list and the first row shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    pub selected: usize,
    pub offset: usize,
}

impl Cursor {
    /// Keeps `selected` inside `len` and visible in `height` rows.
    pub fn clamp(&mut self, len: usize, height: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }
}

/// The webhook log's status filter, cycled with `f`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EventFilter {
    #[default]
    All,
    Failed,
    Success,
}

impl EventFilter {
    pub fn next(self) -> EventFilter {
        match self {
            EventFilter::All => EventFilter::Failed,
            EventFilter::Failed => EventFilter::Success,
            EventFilter::Success => EventFilter::All,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            EventFilter::All => "all",
            EventFilter::Failed => "failed",
            EventFilter::Success => "success",
        }
    }
    /// The `status` query value.
    pub fn status(self) -> Option<String> {
        match self {
            EventFilter::All => None,
            f => Some(f.label().to_string()),
        }
    }
}

/// The webhook log: one page at a time.
#[derive(Debug, Clone, Default)]
pub struct Webhooks {
    pub events: Remote<Vec<WebhookEvent>>,
    pub filter: EventFilter,
    /// The page shown (or asked for), 1-based.
    pub page: u32,
    /// Total pages from `meta.pages`, when known.
    pub pages: Option<u32>,
    pub cursor: Cursor,
}

impl Webhooks {
    pub fn query(&self) -> EventQuery {
        EventQuery {
            status: self.filter.status(),
            page: Some(self.page.max(1)),
            ..Default::default()
        }
    }
}

/// What `e` renames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RenameTarget {
    Template,
    Channel,
}

impl RenameTarget {
    pub fn noun(self) -> &'static str {
        match self {
            RenameTarget::Template => "template",
            RenameTarget::Channel => "channel",
        }
    }
}

/// The rename form over the overlay.
#[derive(Debug, Clone)]
pub struct Rename {
    pub target: RenameTarget,
    pub uuid: String,
    pub form: Form,
    /// The save in flight, if any.
    pub saving: Option<ReqId>,
}

/// The members shown under the teams list.
#[derive(Debug, Clone, Default)]
pub struct Members {
    /// Team uuid and name.
    pub team: Option<(String, String)>,
    pub list: Remote<Vec<TeamMember>>,
}

#[derive(Debug, Clone)]
pub struct Account {
    pub tab: AccountTab,
    pub templates: Remote<Vec<Template>>,
    pub templates_cursor: Cursor,
    pub channels: Remote<Vec<Channel>>,
    pub channels_cursor: Cursor,
    pub teams: Remote<Vec<Team>>,
    pub teams_cursor: Cursor,
    pub members: Members,
    pub plan: Remote<Plan>,
    pub funnels: Remote<Vec<Funnel>>,
    pub funnels_cursor: Cursor,
    pub webhooks: Webhooks,
    pub rename: Option<Rename>,
}

impl Default for Account {
    fn default() -> Self {
        Account {
            tab: AccountTab::Templates,
            templates: Remote::default(),
            templates_cursor: Cursor::default(),
            channels: Remote::default(),
            channels_cursor: Cursor::default(),
            teams: Remote::default(),
            teams_cursor: Cursor::default(),
            members: Members::default(),
            plan: Remote::default(),
            funnels: Remote::default(),
            funnels_cursor: Cursor::default(),
            webhooks: Webhooks {
                page: 1,
                ..Default::default()
            },
            rename: None,
        }
    }
}

impl Account {
    /// Rows in the current tab's list, and its cursor.
    pub fn current(&mut self) -> (usize, &mut Cursor) {
        match self.tab {
            AccountTab::Templates => (
                self.templates.data.as_ref().map_or(0, Vec::len),
                &mut self.templates_cursor,
            ),
            AccountTab::Channels => (
                self.channels.data.as_ref().map_or(0, Vec::len),
                &mut self.channels_cursor,
            ),
            AccountTab::Teams => (self.teams.data.as_ref().map_or(0, Vec::len), &mut self.teams_cursor),
            AccountTab::Plan => (self.funnels.data.as_ref().map_or(0, Vec::len), &mut self.funnels_cursor),
            AccountTab::Webhooks => (
                self.webhooks.events.data.as_ref().map_or(0, Vec::len),
                &mut self.webhooks.cursor,
            ),
        }
    }
}

/// Where the overlay's parts go inside `area` (the screen above the status
/// line). Shared by `update` (page sizes) and the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountAreas {
    pub frame: Rect,
    pub tabs: Rect,
    /// The list, header row included.
    pub list: Rect,
    /// The selected row's details (text, members, response, funnels).
    pub detail: Rect,
    pub footer: Rect,
}

pub fn account_areas(area: Rect, tab: AccountTab) -> AccountAreas {
    let inner = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    let [tabs, body, footer] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(2), Constraint::Length(1)]).areas(inner);
    // The plan's facts are a few lines; the funnels list goes below them.
    let split = match tab {
        AccountTab::Plan => Layout::vertical([Constraint::Length(7), Constraint::Min(2)]),
        _ => Layout::vertical([Constraint::Percentage(55), Constraint::Min(2)]),
    };
    let [list, detail] = split.areas(body);
    AccountAreas {
        frame: area,
        tabs,
        list,
        detail,
        footer,
    }
}
