mod update;
mod view;

use chrono::{DateTime, Duration, TimeZone, Utc};

use crate::index::{HeldMessage, HeldPage, ReportRow, Who};
use crate::report::{GroupBy, Period, Report, compute};

/// The clock of every report test: a Thursday noon.
pub(super) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).single().unwrap()
}

/// A week of conversations: two agents, a tag each, first answers from
/// 5 minutes to 2 hours, some closed, some waiting.
pub(super) fn rows() -> Vec<ReportRow> {
    let now = now();
    let mut out = Vec::new();
    for i in 0..28i64 {
        let created = now - Duration::hours(6 * i + 1);
        let asked = created + Duration::minutes(1);
        let answered = asked + Duration::minutes(5 + 4 * i);
        let closed = (i % 3 == 0).then(|| answered + Duration::hours(2));
        let mut messages = vec![HeldMessage {
            at: asked,
            who: Who::Customer,
            automatic: false,
        }];
        if i % 4 != 3 {
            messages.push(HeldMessage {
                at: answered,
                who: Who::Agent,
                automatic: false,
            });
        }
        let last = messages.last().copied();
        let activity = last.map(|m| m.at);
        out.push(ReportRow {
            uuid: format!("c{i}"),
            created_at: Some(created),
            closed_at: closed,
            activity,
            assignee: Some(
                if i % 2 == 0 {
                    "ann@example.com"
                } else {
                    "bo@example.com"
                }
                .into(),
            ),
            team: None,
            tags: vec![if i % 5 == 0 { "billing" } else { "\u{1b}[31mvip" }.into()],
            page: Some(HeldPage {
                activity,
                last,
                len: messages.len(),
                messages,
                wait: Default::default(),
            }),
        });
    }
    out
}

pub(super) fn report(days: i64, by: Option<GroupBy>) -> Report {
    let now = now();
    compute(&rows(), Period::since(now, Duration::days(days)), now, by)
}
