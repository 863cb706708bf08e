//! `POST /hub/v1/report`: the team's report (see `crate::report` and
//! docs/reports.md), computed from the hub's index, so every agent sees
//! the same figures. The body names the period and the grouping:
//! `{"secs": 604800, "by": "agent"}` (this long before now) or `{"from":
//! "2026-11-01", "to": "2026-11-07", "by": null}` (whole UTC days). A POST:
//! the body asks for a computation, it changes nothing.
//!
//! One answer is kept a few seconds per question, so agents asking at
//! nearly the same time get the very same figures ("waiting now" moves
//! with the clock) and the hub computes once for them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DurationRound, NaiveDate, Utc};
use serde::Deserialize;

use super::state::HubState;
use super::wire;
use crate::index::IndexAccess;
use crate::report::{GroupBy, Period, Report};

/// How long one computed report answers the same question.
const KEEP: Duration = Duration::from_secs(5);
/// The longest period, in seconds: ten years (as `frontdesk report`).
const MAX_SECS: i64 = 3660 * 86_400;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    #[serde(default)]
    secs: Option<i64>,
    #[serde(default)]
    from: Option<NaiveDate>,
    #[serde(default)]
    to: Option<NaiveDate>,
    #[serde(default)]
    by: Option<GroupBy>,
}

type Kept = HashMap<String, (Instant, Report)>;

/// Answers kept per hub (its data dir) and question.
fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(HashMap::new()))
}

fn period(ask: &Ask, now: chrono::DateTime<Utc>) -> Result<Period, &'static str> {
    match (ask.secs, ask.from, ask.to) {
        (Some(d), None, None) if (1..=MAX_SECS).contains(&d) => Ok(Period::since(now, chrono::Duration::seconds(d))),
        (Some(_), None, None) => Err("secs must be 1 to 316224000 (ten years)"),
        (None, Some(first), Some(last)) => Period::days(first, last).ok_or("to must not be before from"),
        (None, None, None) => Ok(Period::since(now, chrono::Duration::days(7))),
        _ => Err("give either secs, or from and to (YYYY-MM-DD)"),
    }
}

pub async fn report(State(st): State<Arc<HubState>>, body: axum::body::Bytes) -> Response {
    let ask = if body.iter().all(u8::is_ascii_whitespace) {
        Ask {
            secs: None,
            from: None,
            to: None,
            by: None,
        }
    } else {
        match serde_json::from_slice::<Ask>(&body) {
            Ok(a) => a,
            Err(e) => {
                let msg = format!("the report's question does not read: {e}");
                return wire::error(StatusCode::UNPROCESSABLE_ENTITY, &crate::text::sanitize_line(&msg))
                    .into_response();
            }
        }
    };
    // Whole seconds: the figures do not depend on when within one the
    // question came.
    let now = Utc::now()
        .duration_trunc(chrono::Duration::seconds(1))
        .unwrap_or_else(|_| Utc::now());
    let period = match period(&ask, now) {
        Ok(p) => p,
        Err(e) => return wire::error(StatusCode::UNPROCESSABLE_ENTITY, e).into_response(),
    };
    let key = format!(
        "{}|{:?}|{:?}|{:?}|{:?}",
        st.config.data_dir.display(),
        ask.secs,
        ask.from,
        ask.to,
        ask.by
    );
    if let Ok(mut k) = kept().lock() {
        k.retain(|_, (at, _)| at.elapsed() < KEEP);
        if let Some((_, r)) = k.get(&key) {
            return Json(r.clone()).into_response();
        }
    }
    let mut index = st.index.clone();
    let by = ask.by;
    let computed = tokio::task::spawn_blocking(move || {
        index
            .with(|ix| ix.report_rows(period.from))
            .map(|rows| crate::report::compute(&rows, period, now, by))
    })
    .await;
    match computed {
        Ok(Ok(r)) => {
            if let Ok(mut k) = kept().lock() {
                k.insert(key, (Instant::now(), r.clone()));
            }
            Json(r).into_response()
        }
        Ok(Err(e)) => {
            tracing::error!("report: {e}");
            wire::error(StatusCode::SERVICE_UNAVAILABLE, "the hub's index cannot be read").into_response()
        }
        Err(e) => {
            tracing::error!("report task: {e}");
            wire::error(StatusCode::INTERNAL_SERVER_ERROR, "the report failed").into_response()
        }
    }
}
