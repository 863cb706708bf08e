//! What the app learned about the account on the way (tags, sources,
//! collaborators, teams, field types, channels, funnels): read by forms,
//! pickers and panes of every slice.

use std::collections::BTreeMap;

use crate::api::{Channel, Contact, FieldMeta};

/// What the app learned about the account, for forms and pickers.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// (uuid, name)
    pub teams: Vec<(String, String)>,
    pub collaborators: Vec<String>,
    /// Collaborator email → name, when a team's members said it.
    pub names: BTreeMap<String, String>,
    /// Collaborator email (lower case) → available now, when a team's
    /// members said it.
    pub available: BTreeMap<String, bool>,
    pub sources: Vec<String>,
    pub tags: Vec<String>,
    pub field_meta: BTreeMap<String, FieldMeta>,
    /// (uuid, "Title (type)") from GET /channels, the main one first;
    /// empty when the server offers no channel list.
    pub channels: Vec<(String, String)>,
    /// Funnel uuid → (emoji, name), from GET /funnels at start.
    pub funnels: BTreeMap<String, (String, String)>,
}

impl Known {
    pub fn add_collaborator(&mut self, email: &str) {
        if !email.is_empty() && !self.collaborators.iter().any(|c| c == email) {
            self.collaborators.push(email.to_string());
            self.collaborators.sort();
        }
    }
    /// A collaborator with a name (a team member).
    pub fn add_collaborator_named(&mut self, email: &str, name: &str) {
        self.add_collaborator(email);
        if !email.is_empty() && !name.trim().is_empty() {
            self.names.insert(email.to_string(), name.trim().to_string());
        }
    }
    /// What the assign picker offers: `Dana Silva <dana@…>` when the name
    /// is known, else the email (the assign form reads the email back).
    pub fn assignees(&self) -> Vec<String> {
        self.collaborators
            .iter()
            .map(|email| match self.names.get(email) {
                Some(name) => format!("{} <{email}>", crate::text::sanitize_line(name).replace(['<', '>'], "")),
                None => email.clone(),
            })
            .collect()
    }
    /// [`Known::assignees`] with each colleague's availability and how
    /// many open conversations they hold (`open`: by email, lower case):
    /// `Dana Silva <dana@…> · ● available · 12 open`.
    pub fn assignees_with_load(&self, open: &std::collections::HashMap<String, usize>) -> Vec<String> {
        self.collaborators
            .iter()
            .zip(self.assignees())
            .map(|(email, label)| {
                let key = email.to_lowercase();
                let state = match self.available.get(&key) {
                    Some(true) => " · ● available",
                    Some(false) => " · ○ away",
                    None => "",
                };
                let n = open.get(&key).copied().unwrap_or(0);
                format!("{label}{state} · {n} open")
            })
            .collect()
    }
    pub fn add_source(&mut self, source: &str) {
        if !source.is_empty() && !self.sources.iter().any(|s| s == source) {
            self.sources.push(source.to_string());
            self.sources.sort();
        }
    }
    pub fn add_tag(&mut self, tag: &str) {
        if !tag.is_empty() && !self.tags.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            self.tags.push(tag.to_string());
            self.tags.sort_by_key(|t| t.to_lowercase());
        }
    }
    pub fn add_team(&mut self, uuid: &str, name: &str) {
        if uuid.is_empty() {
            return;
        }
        match self.teams.iter_mut().find(|(u, _)| u == uuid) {
            Some(t) if !name.is_empty() => t.1 = name.to_string(),
            Some(_) => {}
            None => self.teams.push((uuid.to_string(), name.to_string())),
        }
    }
    /// `🎯 Name` for a known funnel; the first 8 characters of the uuid
    /// otherwise, so an unknown one still fits on one line.
    pub fn funnel_label(&self, uuid: &str) -> String {
        match self.funnels.get(uuid) {
            Some((emoji, name)) if !name.is_empty() || !emoji.is_empty() => [emoji.as_str(), name.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            _ => uuid.chars().take(8).collect(),
        }
    }
    /// Learns the channels for the new-contact form: the main one first
    /// (the server's default), each labelled `Title (type)`.
    pub fn set_channels(&mut self, mut channels: Vec<Channel>) {
        channels.sort_by_key(|c| !c.main);
        self.channels = channels
            .into_iter()
            .map(|c| {
                let title = if c.title.is_empty() { c.uuid.clone() } else { c.title };
                let label = match (c.channel_type.as_str().is_empty(), c.main) {
                    (true, false) => title,
                    (true, true) => format!("{title} (main)"),
                    (false, false) => format!("{title} ({})", c.channel_type),
                    (false, true) => format!("{title} ({}, main)", c.channel_type),
                };
                (c.uuid, label)
            })
            .collect();
    }
    pub fn team_name(&self, uuid: &str) -> Option<&str> {
        self.teams.iter().find(|(u, _)| u == uuid).map(|(_, n)| n.as_str())
    }
    /// Learns tags, sources, collaborators, teams and field types from a contact.
    pub fn learn(&mut self, c: &Contact) {
        for t in &c.tags {
            self.add_tag(t);
        }
        self.add_source(&c.source);
        if let Some(a) = &c.assigned_user {
            self.add_collaborator(a);
        }
        if let Some(t) = &c.team
            && let Some(u) = &t.uuid
        {
            self.add_team(u, t.name.as_deref().unwrap_or(""));
        }
        if let Some(meta) = &c.custom_fields_metadata {
            for (k, v) in meta {
                self.field_meta.insert(k.clone(), v.clone());
            }
        }
    }
}
