//! `GET /hub/v1/snippets`: the team's canned replies, the hub's
//! `<data-dir>/snippets.toml` (the client's format, read with
//! `crate::snippets`). The file is read again when it changed (one `stat`
//! a request). A broken file never makes an error answer: what parses is
//! served, what does not is logged once per version of the file and
//! listed in `warnings`.

use std::sync::{Arc, PoisonError};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::state::HubState;
use crate::stamp::stamp;

/// The answer for the file at `path` as it is now.
fn read(path: &std::path::Path) -> Value {
    let snippets = match crate::snippets::load(path) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("the team's snippets: {e}");
            return json!({ "snippets": [], "warnings": [e] });
        }
    };
    for w in &snippets.warnings {
        tracing::warn!("the team's snippets: {w}");
    }
    let items: Vec<Value> = snippets
        .items
        .iter()
        .map(|s| json!({ "name": s.name, "label": s.label, "text": s.text }))
        .collect();
    json!({ "snippets": items, "warnings": snippets.warnings })
}

pub async fn get(State(st): State<Arc<HubState>>) -> Response {
    let path = st.config.data_dir.join(crate::snippets::FILE_NAME);
    let st2 = st.clone();
    let answer = tokio::task::spawn_blocking(move || {
        let now = stamp(&path);
        let mut cache = st2.snippets.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &*cache {
            Some((seen, answer)) if *seen == now => answer.clone(),
            _ => {
                let answer = Arc::new(read(&path));
                *cache = Some((now, answer.clone()));
                answer
            }
        }
    })
    .await
    .unwrap_or_else(|_| Arc::new(json!({ "snippets": [], "warnings": ["the snippets file could not be read"] })));
    Json(answer.as_ref().clone()).into_response()
}
