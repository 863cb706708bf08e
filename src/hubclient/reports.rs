//! The team's figures from the hub: its report (`POST /hub/v1/report`)
//! and its views' counts (`GET /hub/v1/counts`), both computed from the
//! hub's index so every agent reads the same ones.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

use super::client::HubClient;
use crate::api::ApiError;
use crate::report::{GroupBy, Report};

/// The period a report covers, as the hub is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportSpan {
    /// This long before the hub's now.
    Since(chrono::Duration),
    /// Whole UTC days, both included.
    Dates(NaiveDate, NaiveDate),
}

/// One built-in view's count on the hub.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HubViewCount {
    pub name: String,
    #[serde(default)]
    pub short: String,
    pub count: u64,
    /// Conversations of unknown state (open or closed) that may belong.
    #[serde(default)]
    pub state_unknown: u64,
    /// For a view on who wrote last: conversations whose last message the
    /// hub has not read yet.
    #[serde(default)]
    pub last_unknown: u64,
}

/// `GET /hub/v1/counts`. Text from the hub: make it inert before showing it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct HubCounts {
    /// The hub has walked the whole account once (else lower bounds).
    pub complete: bool,
    pub contacts: u64,
    /// Whose Mine it is: the agent's email as the hub knows it.
    #[serde(default)]
    pub me: Option<String>,
    #[serde(default, with = "crate::api::model::time::opt")]
    pub at: Option<DateTime<Utc>>,
    pub views: Vec<HubViewCount>,
}

/// The largest report read (a 90-day report by tag stays far below).
const REPORT_CAP: usize = 8 * 1024 * 1024;

impl HubClient {
    /// The team's report over `span`, grouped `by`, computed by the hub.
    pub async fn report(&self, span: ReportSpan, by: Option<GroupBy>) -> Result<Report, ApiError> {
        let mut body = match span {
            ReportSpan::Since(d) => serde_json::json!({ "secs": d.num_seconds() }),
            ReportSpan::Dates(from, to) => serde_json::json!({ "from": from, "to": to }),
        };
        body["by"] = serde_json::to_value(by).unwrap_or(serde_json::Value::Null);
        let resp = self
            .send(reqwest::Method::POST, &["report"], &[], Some(body.to_string()))
            .await?;
        self.json_capped("POST /hub/v1/report", resp, REPORT_CAP).await
    }

    /// [`HubClient::counts`] with the agent's own views too (`views`: TOML
    /// `[[views]]` tables, as in the config file), counted by the hub.
    pub async fn counts_with(&self, views: &str) -> Result<HubCounts, ApiError> {
        let body = serde_json::json!({ "views": views });
        let resp = self
            .send(reqwest::Method::POST, &["counts"], &[], Some(body.to_string()))
            .await?;
        self.json_capped("POST /hub/v1/counts", resp, REPORT_CAP).await
    }

    /// How many contacts each built-in view holds on the hub now.
    pub async fn counts(&self) -> Result<HubCounts, ApiError> {
        let resp = self.open(&["counts"], &[]).await?;
        self.json_capped("GET /hub/v1/counts", resp, REPORT_CAP).await
    }
}
