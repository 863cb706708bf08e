//! What the account offers (templates, channels, teams, the plan and the
//! funnels), fetched once and shared by everything that needs it: the
//! composer's template picker, the new-contact form's channels, the details
//! pane's funnel names and the account overlay. Only a deliberate refresh
//! (`r` in the overlay) fetches a part again.

use chrono::{DateTime, Utc};

use super::req::ReqId;
use crate::api::{Channel, Funnel, Plan, Team, Template};

/// Something fetched: absent until the first answer, the error of the last
/// failed fetch, and the id of the fetch in flight (results with another id
/// are stale and dropped).
#[derive(Debug, Clone)]
pub struct Remote<T> {
    pub data: Option<T>,
    pub error: Option<String>,
    pub loading: Option<ReqId>,
    /// When the data shown arrived.
    pub loaded_at: Option<DateTime<Utc>>,
}

impl<T> Default for Remote<T> {
    fn default() -> Self {
        Remote {
            data: None,
            error: None,
            loading: None,
            loaded_at: None,
        }
    }
}

impl<T> Remote<T> {
    /// Never asked for yet.
    pub fn untouched(&self) -> bool {
        self.data.is_none() && self.error.is_none() && self.loading.is_none()
    }

    /// Applies the answer to request `id`; false (and nothing changes) when
    /// another request is awaited.
    pub fn settle<E: std::fmt::Display>(&mut self, id: ReqId, result: Result<T, E>, now: DateTime<Utc>) -> bool {
        if self.loading != Some(id) {
            return false;
        }
        self.loading = None;
        match result {
            Ok(v) => {
                self.data = Some(v);
                self.error = None;
                self.loaded_at = Some(now);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        true
    }
}

/// One part of the catalog, fetched on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    Templates,
    Channels,
    Teams,
    Plan,
    Funnels,
}

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub templates: Remote<Vec<Template>>,
    pub channels: Remote<Vec<Channel>>,
    pub teams: Remote<Vec<Team>>,
    pub plan: Remote<Plan>,
    pub funnels: Remote<Vec<Funnel>>,
}

impl Catalog {
    /// Whether `part` was never asked for.
    pub fn untouched(&self, part: Part) -> bool {
        match part {
            Part::Templates => self.templates.untouched(),
            Part::Channels => self.channels.untouched(),
            Part::Teams => self.teams.untouched(),
            Part::Plan => self.plan.untouched(),
            Part::Funnels => self.funnels.untouched(),
        }
    }

    /// Whether a fetch of `part` is in flight.
    pub fn loading(&self, part: Part) -> bool {
        match part {
            Part::Templates => self.templates.loading.is_some(),
            Part::Channels => self.channels.loading.is_some(),
            Part::Teams => self.teams.loading.is_some(),
            Part::Plan => self.plan.loading.is_some(),
            Part::Funnels => self.funnels.loading.is_some(),
        }
    }

    /// Marks `part` as awaiting request `id`.
    pub fn start(&mut self, part: Part, id: ReqId) {
        match part {
            Part::Templates => self.templates.loading = Some(id),
            Part::Channels => self.channels.loading = Some(id),
            Part::Teams => self.teams.loading = Some(id),
            Part::Plan => self.plan.loading = Some(id),
            Part::Funnels => self.funnels.loading = Some(id),
        }
    }

    /// The templates a message can be sent with (approved ones), once
    /// loaded.
    pub fn approved_templates(&self) -> Option<Vec<Template>> {
        let all = self.templates.data.as_ref()?;
        Some(
            all.iter()
                .filter(|t| t.status == crate::api::TemplateStatus::Approved)
                .cloned()
                .collect(),
        )
    }
}
