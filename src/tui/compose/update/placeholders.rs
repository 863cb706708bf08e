//! A template's `{{n}}` placeholders and its text with values filled in.

/// `{{n}}` placeholders of a template, distinct and in order of n.
pub fn placeholders(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        rest = &rest[i + 2..];
        if let Some(j) = rest.find("}}")
            && let Ok(n) = rest[..j].trim().parse::<u32>()
        {
            out.push(n);
            rest = &rest[j + 2..];
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The template's text with its values in place, for the thread.
pub fn fill(text: &str, values: &[String]) -> String {
    let mut out = text.to_string();
    for (n, v) in placeholders(text).iter().zip(values) {
        out = out.replace(&format!("{{{{{n}}}}}", n = n), v);
    }
    out
}
