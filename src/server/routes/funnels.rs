//! Funnels (timestamps in the reference's `YYYY-MM-DD HH:MM:SS +0000` form).

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::server::db::legacy;
use crate::server::error::ApiResult;
use crate::server::state::Shared;

pub async fn list(State(st): State<Shared>) -> ApiResult<Json<Value>> {
    st.db(|conn| {
        let funnels = conn
            .prepare("SELECT uuid, name, emoji, position, created_at FROM funnels ORDER BY position, id")?
            .query_map([], |r| {
                Ok(json!({
                    "uuid": r.get::<_, String>(0)?,
                    "name": r.get::<_, String>(1)?,
                    "emoji": r.get::<_, String>(2)?,
                    "position": r.get::<_, i64>(3)?,
                    "createdAt": legacy(r.get(4)?),
                }))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Json(json!({ "funnels": funnels })))
    })
    .await
}
