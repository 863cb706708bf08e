//! The account overlay (`A`): templates, channels, teams, the plan and the
//! webhook log, one tab each. Plain data; `update::account` changes it.
//! The lists themselves live in the shared `Catalog` (fetched once); the
//! overlay keeps what is its own: selections, opened details, the webhook
//! log and its filters, and the forms over it.

use ratatui::layout::{Constraint, Layout, Rect};

use super::catalog::{Catalog, Part};
use crate::api::{EventQuery, Team, TeamMember, Template, WebhookEvent};
use crate::tui::form::Form;
use crate::tui::msg::ReqId;
pub use crate::tui::msg::account::RenameTarget;

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

pub use super::catalog::Remote;
pub use crate::tui::shared::scroll::Scroll;

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

/// Event kinds offered by the subscriptions filter (extensions.md); kinds
/// seen in the log are offered too.
pub const EVENT_KINDS: &[&str] = &[
    "message_created",
    "message_status_updated",
    "contact_created",
    "contact_updated",
    "contact_deleted",
    "conversation_opened",
    "conversation_closed",
    "agent_status_updated",
    "agent_session_updated",
    "team_membership_updated",
];

/// The most events a page may hold (`items`).
pub const MAX_PAGE_SIZE: u32 = 100;

/// The webhook log: one page at a time.
#[derive(Debug, Clone, Default)]
pub struct Webhooks {
    pub events: Remote<Vec<WebhookEvent>>,
    pub filter: EventFilter,
    /// Event kinds shown (empty: every kind).
    pub subscriptions: Vec<String>,
    /// Events per page; `None`: the server's default.
    pub items: Option<u32>,
    /// The page shown (or asked for), 1-based.
    pub page: u32,
    /// Total pages from `meta.pages`, when known.
    pub pages: Option<u32>,
    pub cursor: Scroll,
}

impl Webhooks {
    pub fn query(&self) -> EventQuery {
        EventQuery {
            status: self.filter.status(),
            subscriptions: self.subscriptions.clone(),
            page: Some(self.page.max(1)),
            items: self.items,
        }
    }
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

/// The team opened with Enter: its record (GET /teams/:uuid) and its
/// members, under the teams list.
#[derive(Debug, Clone, Default)]
pub struct Members {
    /// Team uuid and name.
    pub team: Option<(String, String)>,
    pub detail: Remote<Team>,
    pub list: Remote<Vec<TeamMember>>,
}

/// The template opened with Enter (GET /templates/:uuid).
#[derive(Debug, Clone, Default)]
pub struct TemplateDetail {
    pub uuid: String,
    pub remote: Remote<Template>,
}

/// A form over the overlay.
#[derive(Debug, Clone)]
pub enum AccountForm {
    Rename(Rename),
    /// The webhook log's event kinds and page size.
    EventFilter(Form),
}

#[derive(Debug, Clone)]
pub struct Account {
    pub tab: AccountTab,
    pub templates_cursor: Scroll,
    pub template: Option<TemplateDetail>,
    pub channels_cursor: Scroll,
    pub teams_cursor: Scroll,
    pub members: Members,
    pub funnels_cursor: Scroll,
    pub webhooks: Webhooks,
    pub form: Option<AccountForm>,
}

impl Default for Account {
    fn default() -> Self {
        Account {
            tab: AccountTab::Templates,
            templates_cursor: Scroll::default(),
            template: None,
            channels_cursor: Scroll::default(),
            teams_cursor: Scroll::default(),
            members: Members::default(),
            funnels_cursor: Scroll::default(),
            webhooks: Webhooks {
                page: 1,
                ..Default::default()
            },
            form: None,
        }
    }
}

impl AccountTab {
    /// The catalog parts the tab shows.
    pub fn parts(self) -> &'static [Part] {
        match self {
            AccountTab::Templates => &[Part::Templates],
            AccountTab::Channels => &[Part::Channels],
            AccountTab::Teams => &[Part::Teams],
            AccountTab::Plan => &[Part::Plan, Part::Funnels],
            AccountTab::Webhooks => &[],
        }
    }
}

impl Account {
    /// Rows in `tab`'s list, and its selection.
    pub fn list_of(&mut self, tab: AccountTab, catalog: &Catalog) -> (usize, &mut Scroll) {
        fn len<T>(r: &Remote<Vec<T>>) -> usize {
            r.data.as_ref().map_or(0, Vec::len)
        }
        match tab {
            AccountTab::Templates => (len(&catalog.templates), &mut self.templates_cursor),
            AccountTab::Channels => (len(&catalog.channels), &mut self.channels_cursor),
            AccountTab::Teams => (len(&catalog.teams), &mut self.teams_cursor),
            AccountTab::Plan => (len(&catalog.funnels), &mut self.funnels_cursor),
            AccountTab::Webhooks => (len(&self.webhooks.events), &mut self.webhooks.cursor),
        }
    }

    /// The rename form, when that is the form open.
    pub fn rename(&self) -> Option<&Rename> {
        match &self.form {
            Some(AccountForm::Rename(r)) => Some(r),
            _ => None,
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
