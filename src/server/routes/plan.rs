//! Plan details, returned at top level.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::teams::all_teams;
use crate::server::error::ApiResult;
use crate::server::state::Shared;

pub async fn show(State(st): State<Shared>) -> ApiResult<Json<Value>> {
    st.db(|conn| {
        let users: i64 = conn.query_row(
            "SELECT COUNT(*) FROM users WHERE active = 1 AND confirmed = 1",
            [],
            |r| r.get(0),
        )?;
        let channels: i64 = conn.query_row("SELECT COUNT(*) FROM channels", [], |r| r.get(0))?;
        Ok(Json(json!({
            "plan": "Business",
            "includedChannels": channels.max(5),
            "licenses": 10,
            "activeUsers": users,
            "teams": all_teams(conn)?,
        })))
    })
    .await
}
