//! Webhook signatures, shared by the embedded server (which signs what it
//! delivers) and the hub (which verifies what it receives).
//!
//! The header is `X-Callbell-Signature: t=<unix seconds>,v1=<hex>` where the
//! hex is HMAC-SHA256 of `"<t>.<raw body>"` keyed with the webhook's secret
//! (see `extensions.md`, "Webhooks").

pub mod path;
pub mod relay;
pub mod subscribe;

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The header that carries the signature.
pub const SIGNATURE_HEADER: &str = "X-Callbell-Signature";

/// Events signed longer ago than this (or this far in the future) are refused.
pub const WINDOW_SECS: i64 = 5 * 60;

type HmacSha256 = Hmac<Sha256>;

/// Why a delivery's signature was refused. The texts never contain the secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("signature header missing")]
    Missing,
    #[error("signature header malformed")]
    Malformed,
    #[error("signature timestamp outside the {WINDOW_SECS} s window")]
    OutsideWindow,
    #[error("signature does not match")]
    Mismatch,
}

fn mac(secret: &[u8], t: i64, body: &[u8]) -> HmacSha256 {
    // HMAC takes a key of any length: new_from_slice cannot fail for it.
    let mut mac = match HmacSha256::new_from_slice(secret) {
        Ok(m) => m,
        Err(_) => unreachable!("HMAC accepts keys of any length"),
    };
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value for `body` signed at unix time `t`.
pub fn sign(secret: &[u8], t: i64, body: &[u8]) -> String {
    let tag = mac(secret, t, body).finalize().into_bytes();
    let mut hex = String::with_capacity(tag.len() * 2);
    for b in tag {
        hex.push_str(&format!("{b:02x}"));
    }
    format!("t={t},v1={hex}")
}

/// Checks a header value against `body`, at unix time `now`. Compares in
/// constant time; several `v1=` entries (a secret being rotated) are allowed.
pub fn verify(header: Option<&str>, body: &[u8], secret: &[u8], now: i64) -> Result<(), SignatureError> {
    let header = header.ok_or(SignatureError::Missing)?;
    let mut t = None;
    let mut tags = Vec::new();
    for part in header.split(',') {
        let (k, v) = part.trim().split_once('=').ok_or(SignatureError::Malformed)?;
        match k {
            "t" => t = Some(v.parse::<i64>().map_err(|_| SignatureError::Malformed)?),
            "v1" => tags.push(decode_hex(v).ok_or(SignatureError::Malformed)?),
            _ => {}
        }
    }
    let t = t.ok_or(SignatureError::Malformed)?;
    if tags.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - t).abs() > WINDOW_SECS {
        return Err(SignatureError::OutsideWindow);
    }
    let expected = mac(secret, t, body);
    // verify_slice compares in constant time.
    if tags.iter().any(|tag| expected.clone().verify_slice(tag).is_ok()) {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || s.len() > 128 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests;
