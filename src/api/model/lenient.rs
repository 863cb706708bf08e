//! Tolerant decoding helpers shared by the resources.

use serde::Deserialize;

/// Reads `null` as the type's default (some servers send `"tags": null`).
pub(crate) fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}
