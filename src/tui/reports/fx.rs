//! Computing a report: through a hub, the hub computes the team's one
//! report from its facts (every agent sees the same figures); alone, read
//! the index's rows and run `report::compute` on the blocking pool (a
//! 30-day report over 100,000 contacts is ~0.6 s).

use chrono::{DateTime, Duration, Utc};

use super::msg::ReportsMsg;
use crate::index::SharedIndex;
use crate::report::{GroupBy, Period};
use crate::tui::shared::ReqId;

/// How long a report waits for the index a sync holds before saying so.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

/// The team's hub a report is asked of.
#[derive(Debug, Clone)]
pub struct Team(pub crate::hubclient::HubClient);

impl PartialEq for Team {
    fn eq(&self, other: &Team) -> bool {
        self.0.root() == other.0.root()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReportsEffect {
    /// The report of the `days` before `now`, grouped `by`: the hub's
    /// when `hub` is set (its own now), else the local index's.
    Compute {
        id: ReqId,
        days: i64,
        by: Option<GroupBy>,
        now: DateTime<Utc>,
        hub: Option<Team>,
    },
}

pub async fn perform(index: Option<SharedIndex>, effect: ReportsEffect) -> ReportsMsg {
    let ReportsEffect::Compute { id, days, by, now, hub } = effect;
    if let Some(Team(hub)) = hub {
        let result = hub
            .report(crate::hubclient::ReportSpan::Since(Duration::days(days)), by)
            .await
            .map_err(|e| format!("the hub's report: {e}"));
        return ReportsMsg::Computed { id, result };
    }
    let Some(index) = index else {
        return ReportsMsg::Computed {
            id,
            result: Err("reports read the local index, and this session has none (see `frontdesk doctor`)".into()),
        };
    };
    let result = tokio::task::spawn_blocking(move || compute(&index, days, by, now))
        .await
        .unwrap_or_else(|e| Err(format!("the report stopped: {e}")));
    ReportsMsg::Computed { id, result }
}

fn compute(
    index: &SharedIndex,
    days: i64,
    by: Option<GroupBy>,
    now: DateTime<Utc>,
) -> Result<crate::report::Report, String> {
    let period = Period::since(now, Duration::days(days));
    let rows = index
        .try_with_for(PATIENCE, |ix| ix.report_rows(period.from))
        .ok_or_else(|| "the index is busy (a sync holds it): r tries again".to_string())?
        .map_err(|e| format!("cannot read the index: {e}"))?;
    Ok(crate::report::compute(&rows, period, now, by))
}
