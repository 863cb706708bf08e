//! A request's JSON body.

use axum::body::Bytes;
use serde_json::{Map, Value};

use crate::server::error::{ApiError, ApiResult};

/// The body as a JSON object; an empty body is an empty object.
pub fn json_body(body: &Bytes) -> ApiResult<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::BadRequest("the body must be a JSON object".into())),
        Err(e) => Err(ApiError::BadRequest(format!("the body is not valid JSON: {e}"))),
    }
}
