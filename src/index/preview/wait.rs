//! The waiting rule, in one place: who owes the customer an answer, since
//! when. Every face (the list's rows, the views and their counts, the CLI,
//! reports, `frontdesk mcp`) reads [`waiting`]; README.md ("Who is
//! waiting") states the rule for people.
//!
//! Waiting starts at the customer's first message after the last reply by
//! a person, and only a person's reply ends it. A note never does. A sent
//! message is a person's unless it is automatic: the service's message
//! carries no author, so a sent message that a team hub does not name
//! (`sentBy`) and that came within [`AUTOMATIC`] of the message before it
//! (the customer's, or another automatic one) is taken as the bot's or an
//! automation's. People do not read and answer that fast; bots and
//! automations answer at once.

use chrono::{DateTime, Duration, Utc};

use super::who::Who;
use crate::api::{Message, MessageStatus};

/// How soon after the message before it a sent message counts as
/// automatic (a bot's answer, an automation's template).
pub const AUTOMATIC: Duration = Duration::seconds(5);

/// What came after the customer's unanswered message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behind {
    /// A bot or an automation answered; no person did.
    Bot,
    /// A colleague wrote a note; nobody answered.
    Note,
}

impl Behind {
    /// How a row says it: "bot replied", "note".
    pub fn label(self) -> &'static str {
        match self {
            Behind::Bot => "bot replied",
            Behind::Note => "note",
        }
    }

    fn stored(self) -> &'static str {
        match self {
            Behind::Bot => "bot",
            Behind::Note => "note",
        }
    }
}

/// What a page of messages says about waiting, kept with its preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wait {
    /// Only the last message is known (one message, or a page cached
    /// before the rule): waiting when the customer wrote it, since then.
    #[default]
    FromLast,
    /// Nobody owes an answer: a person replied last, or the customer never
    /// wrote.
    Answered,
    /// The customer has been waiting since `since` (their first message
    /// after the last person's reply); `behind`: a bot's answer or a note
    /// that came after it.
    Since {
        since: Option<DateTime<Utc>>,
        behind: Option<Behind>,
    },
}

/// A customer waiting for an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// Their first message after the last person's reply (`None`: not
    /// dated).
    pub since: Option<DateTime<Utc>>,
    /// What came after it, when something did.
    pub behind: Option<Behind>,
}

/// Whether, and since when, a customer waits: the one answer every face
/// gives. `wait` is what the page said; `who` and `at` are its last
/// message (used alone when `wait` is [`Wait::FromLast`]).
pub fn waiting(wait: Wait, who: Option<Who>, at: Option<DateTime<Utc>>) -> Option<Waiting> {
    match wait {
        Wait::Answered => None,
        Wait::Since { since, behind } => Some(Waiting { since, behind }),
        Wait::FromLast => (who == Some(Who::Customer)).then_some(Waiting {
            since: at,
            behind: None,
        }),
    }
}

/// Who wrote each message as the rule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    Customer,
    Person,
    Automatic,
    Note,
}

impl Wait {
    /// The rule over a page of messages (any order).
    pub fn of(messages: &[Message]) -> Wait {
        let mut sorted: Vec<&Message> = messages.iter().collect();
        // Oldest first; among equal stamps the one listed last first
        // (pages come newest first).
        sorted.reverse();
        sorted.sort_by_key(|m| m.created_at);
        let said = authors(sorted.iter().map(|m| Said {
            status: &m.status,
            named: m.sent_by.as_deref().is_some_and(|s| !s.trim().is_empty()),
            at: m.created_at,
        }));
        let mut wait = Wait::Answered;
        for (m, author) in sorted.iter().zip(said) {
            let Some(author) = author else { continue };
            wait = match (author, wait) {
                (Author::Customer, Wait::Since { since, .. }) => Wait::Since { since, behind: None },
                (Author::Customer, _) => Wait::Since {
                    since: m.created_at,
                    behind: None,
                },
                (Author::Person, _) => Wait::Answered,
                (Author::Automatic, Wait::Since { since, .. }) => Wait::Since {
                    since,
                    behind: Some(Behind::Bot),
                },
                (Author::Note, Wait::Since { since, behind }) => Wait::Since {
                    since,
                    behind: behind.or(Some(Behind::Note)),
                },
                (_, w) => w,
            };
        }
        wait
    }

    /// The form kept in the index (`messages.wait`).
    pub fn stored(self) -> Option<String> {
        match self {
            Wait::FromLast => None,
            Wait::Answered => Some("answered".into()),
            Wait::Since { since, behind } => Some(format!(
                "{}|{}",
                since.map(|t| t.to_rfc3339()).unwrap_or_default(),
                behind.map(Behind::stored).unwrap_or_default()
            )),
        }
    }

    /// Back from [`Wait::stored`]; anything else is [`Wait::FromLast`].
    pub fn from_stored(s: Option<&str>) -> Wait {
        let Some(s) = s else { return Wait::FromLast };
        if s == "answered" {
            return Wait::Answered;
        }
        let Some((since, behind)) = s.split_once('|') else {
            return Wait::FromLast;
        };
        let since = DateTime::parse_from_rfc3339(since).ok().map(|t| t.with_timezone(&Utc));
        let behind = match behind {
            "bot" => Some(Behind::Bot),
            "note" => Some(Behind::Note),
            _ => None,
        };
        Wait::Since { since, behind }
    }
}

/// One message as the rule reads it: its status, whether a team hub
/// named who sent it (`sentBy`), and when.
#[derive(Debug, Clone, Copy)]
pub struct Said<'a> {
    pub status: &'a MessageStatus,
    pub named: bool,
    pub at: Option<DateTime<Utc>>,
}

/// Who wrote each of `messages` (oldest first) under the rule; `None` for
/// a message of an unknown kind. Reports read it for first responses, so
/// a bot's answer is never a person's there either.
pub fn authors<'a>(messages: impl IntoIterator<Item = Said<'a>>) -> Vec<Option<Author>> {
    // The previous message that is not a note, and who wrote it.
    let mut prev: Option<(Author, Option<DateTime<Utc>>)> = None;
    messages
        .into_iter()
        .map(|m| {
            let author = author(m, prev);
            if let Some(a) = author.filter(|a| *a != Author::Note) {
                prev = Some((a, m.at));
            }
            author
        })
        .collect()
}

fn author(m: Said<'_>, prev: Option<(Author, Option<DateTime<Utc>>)>) -> Option<Author> {
    match m.status {
        MessageStatus::Received => Some(Author::Customer),
        MessageStatus::Note => Some(Author::Note),
        MessageStatus::Other(_) => None,
        MessageStatus::Sent if m.named => Some(Author::Person),
        MessageStatus::Sent => {
            let quick = match (prev, m.at) {
                (Some((Author::Customer | Author::Automatic, Some(before))), Some(at)) => at - before <= AUTOMATIC,
                _ => false,
            };
            Some(if quick { Author::Automatic } else { Author::Person })
        }
    }
}

#[cfg(test)]
mod tests;
