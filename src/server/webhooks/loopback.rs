//! Where a receiver may be: the demo server posts to loopback only.

use std::net::IpAddr;

/// Only loopback receivers: the demo server must never post data elsewhere.
pub fn check_loopback(raw: &str) -> Result<String, String> {
    let url = url::Url::parse(raw).map_err(|e| format!("webhook URL {raw:?} is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("webhook URL must use http or https".into());
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    };
    if loopback {
        Ok(url.to_string())
    } else {
        Err(format!(
            "webhook URL must be on a loopback address, got host {:?}",
            url.host_str().unwrap_or("")
        ))
    }
}
