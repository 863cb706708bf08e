//! `frontdesk report`: conversations opened and closed per day, first
//! response and resolution times, and what waits now, per agent, team or
//! tag, from the local index only (no API request); through a hub, the
//! team's one report as the hub computes it from its index. The figures
//! are computed in `crate::report` and defined in docs/reports.md.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use clap::Args;

use super::cache::open_index;
use super::sync::index_err;
use crate::cli::ctx::Ctx;
use crate::cli::error::CliError;
use crate::cli::output::Format;
use crate::cli::output::{json_safe, render_table, sanitize};
use crate::hubclient::ReportSpan;
use crate::report::{self, BUCKET_LABELS, GroupBy, Period, Report, Timing, human};

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The period: this long before now (30m, 12h, 7d) [default: 7d]
    #[arg(long, value_parser = parse_span, conflicts_with_all = ["from", "to"])]
    pub since: Option<Duration>,
    /// The period's first day, YYYY-MM-DD (UTC); with --to
    #[arg(long, value_parser = parse_date, requires = "to")]
    pub from: Option<NaiveDate>,
    /// The period's last day, included, YYYY-MM-DD (UTC); with --from
    #[arg(long, value_parser = parse_date, requires = "from")]
    pub to: Option<NaiveDate>,
    /// Figures per agent, team or tag besides the whole account
    #[arg(long, value_enum)]
    pub by: Option<GroupBy>,
    /// Print CSV: one row per group and day, and a "total" row per group
    #[arg(long)]
    pub csv: bool,
}

fn parse_span(s: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(s.trim())
        .map_err(|_| format!("expected a span such as 30m, 12h or 7d, not {:?}", sanitize(s)))?;
    let d = Duration::from_std(d).map_err(|_| "the span is too long".to_string())?;
    if d <= Duration::zero() {
        return Err("the span must be longer than zero".into());
    }
    if d > Duration::days(3660) {
        return Err("the span must be at most ten years".into());
    }
    Ok(d)
}

fn parse_date(s: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| format!("expected a date such as 2026-03-01, not {:?}", sanitize(s)))
}

fn period(args: &ReportArgs, now: DateTime<Utc>) -> Result<Period, CliError> {
    match (args.from, args.to) {
        (Some(first), Some(last)) => {
            Period::days(first, last).ok_or_else(|| CliError::usage("--to must not be before --from"))
        }
        _ => Ok(Period::since(now, args.since.unwrap_or(Duration::days(7)))),
    }
}

pub async fn run(ctx: &mut Ctx<'_>, args: ReportArgs) -> Result<(), CliError> {
    if args.csv && ctx.format != Format::Table {
        return Err(CliError::usage("--csv cannot be combined with --json or --jsonl"));
    }
    let now = Utc::now();
    let period = period(&args, now)?;
    // Through a hub: the team's one report, computed by the hub from its
    // facts, so every agent reads the same figures.
    let (report, source) = match ctx.settings()?.hub().map_err(|e| CliError::Usage(e.to_string()))? {
        Some(hub) => {
            let span = match (args.from, args.to) {
                (Some(first), Some(last)) => ReportSpan::Dates(first, last),
                _ => ReportSpan::Since(args.since.unwrap_or(Duration::days(7))),
            };
            let report = hub.report(span, args.by).await.map_err(|source| CliError::Api {
                what: "asking the hub for the team's report".into(),
                source,
            })?;
            (report, Source::Hub)
        }
        None => {
            let index = open_index(ctx)?;
            if index.count().map_err(index_err)? == 0 {
                return Err(CliError::Other(
                    "the local index is empty: run `frontdesk sync` to fill it (a report reads only the index and makes no API request)"
                        .into(),
                ));
            }
            let synced = index.sync_state().map_err(index_err)?.full_walk_finished_at;
            let rows = index.report_rows(period.from).map_err(index_err)?;
            (report::compute(&rows, period, now, args.by), Source::Local(synced))
        }
    };
    let doc = if args.csv {
        let _ = writeln!(ctx.err, "{}", footnote(&report, source).replace('\n', " "));
        csv(&report)
    } else {
        match ctx.format {
            Format::Table => table(&report, source, ctx.color),
            Format::Json => json_safe(serde_json::to_string_pretty(&report).map_err(encode_err)?) + "\n",
            Format::Jsonl => json_safe(serde_json::to_string(&report).map_err(encode_err)?) + "\n",
        }
    };
    ctx.emit(&doc)
}

/// Where a report's figures come from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// The local index, and when its last full sync ended.
    Local(Option<DateTime<Utc>>),
    /// The team's hub.
    Hub,
}

fn encode_err(e: serde_json::Error) -> CliError {
    CliError::Other(format!("cannot encode the report as JSON: {e}"))
}

fn pair(t: &Timing) -> String {
    format!("{} / {}", human(t.median_secs), human(t.p90_secs))
}

fn table(r: &Report, source: Source, color: bool) -> String {
    let mut s = format!(
        "Report {} to {} (UTC)\n\n",
        r.period.from.format("%Y-%m-%d %H:%M"),
        r.period.to.format("%Y-%m-%d %H:%M")
    );
    let summary: Vec<Vec<String>> = r
        .groups
        .iter()
        .map(|g| {
            vec![
                g.group.clone(),
                g.opened.to_string(),
                g.closed.to_string(),
                pair(&g.first_response),
                g.first_response.count.to_string(),
                pair(&g.resolution),
            ]
        })
        .collect();
    let headers = [
        "GROUP",
        "OPENED",
        "CLOSED",
        "FIRST RESPONSE MED / P90",
        "MEASURED",
        "RESOLUTION MED / P90",
    ];
    s.push_str(&render_table(&headers, &summary, color));
    s.push('\n');
    let waiting: Vec<Vec<String>> = r
        .groups
        .iter()
        .map(|g| {
            let mut row = vec![g.group.clone(), g.waiting.total.to_string()];
            row.extend(g.waiting.buckets.iter().map(u64::to_string));
            row
        })
        .collect();
    let mut headers = vec!["WAITING NOW", "TOTAL"];
    headers.extend(BUCKET_LABELS);
    s.push_str(&render_table(&headers, &waiting, color));
    s.push('\n');
    if let Some(all) = r.groups.first() {
        let days: Vec<Vec<String>> = all
            .days
            .iter()
            .map(|d| vec![d.day.to_string(), d.opened.to_string(), d.closed.to_string()])
            .collect();
        s.push_str(&render_table(&["DAY (UTC)", "OPENED", "CLOSED"], &days, color));
        s.push('\n');
    }
    s.push_str(&footnote(r, source));
    s
}

/// What the figures rest on and what the index could not tell.
fn footnote(r: &Report, source: Source) -> String {
    let mut s = match source {
        Source::Hub => "Computed by the team's hub from its index: every agent through it reads the same figures.\n".into(),
        Source::Local(Some(t)) => format!(
            "Read from the local index (last full sync {} UTC); no API request was made.\n",
            t.format("%Y-%m-%d %H:%M")
        ),
        Source::Local(None) => "Read from the local index, which no full sync has completed yet (`frontdesk sync`); no API request was made.\n".into(),
    };
    let (whose, fetches) = match source {
        Source::Hub => ("the hub's index", "the hub reads it in the background"),
        Source::Local(_) => ("the index", "`frontdesk views` fetches it"),
    };
    if r.unknown.first_response > 0 {
        s.push_str(&format!(
            "First response: {} conversation(s) active in the period are not measured: {whose} holds no page of their messages, or not their first one.\n",
            r.unknown.first_response
        ));
    }
    if r.unknown.waiting > 0 {
        s.push_str(&format!(
            "Waiting now: {} open conversation(s) left out: {whose} does not hold their latest message ({fetches}).\n",
            r.unknown.waiting
        ));
    }
    s.push_str("Resolution runs from a contact's creation to its latest close: a reopened conversation counts once. See docs/reports.md.\n");
    if r.by.is_some() {
        s.push_str("Per-day figures per group: --json or --csv.\n");
    }
    s
}

/// A CSV cell: inert in a terminal, never read as a formula by a
/// spreadsheet, quoted when it holds a comma, quote or line break.
fn cell(s: &str) -> String {
    let mut v = sanitize(s);
    if v.starts_with(['=', '+', '-', '@']) {
        v.insert(0, '\'');
    }
    if v.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v
    }
}

fn opt(n: Option<i64>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

fn csv(r: &Report) -> String {
    let mut s = String::from(
        "group,day,opened,closed,first_response_count,first_response_median_secs,first_response_p90_secs,\
         resolution_count,resolution_median_secs,resolution_p90_secs,waiting,waiting_under_15m,waiting_under_1h,\
         waiting_under_4h,waiting_under_1d,waiting_older\n",
    );
    for g in &r.groups {
        let name = cell(&g.group);
        for d in &g.days {
            s.push_str(&format!("{name},{},{},{},,,,,,,,,,,,\n", d.day, d.opened, d.closed));
        }
        let (f, res, w) = (&g.first_response, &g.resolution, &g.waiting);
        s.push_str(&format!(
            "{name},total,{},{},{},{},{},{},{},{},{},{}\n",
            g.opened,
            g.closed,
            f.count,
            opt(f.median_secs),
            opt(f.p90_secs),
            res.count,
            opt(res.median_secs),
            opt(res.p90_secs),
            w.total,
            w.buckets.map(|b| b.to_string()).join(",")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_quoted_and_never_formulas() {
        assert_eq!(cell("vip"), "vip");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert!(!cell("x\u{1b}[31m").contains('\u{1b}'));
    }

    #[test]
    fn spans_and_dates_say_what_they_expect() {
        assert_eq!(parse_span("7d"), Ok(Duration::days(7)));
        assert!(parse_span("0s").is_err());
        assert!(parse_span("soon").unwrap_err().contains("30m"));
        assert!(parse_date("2026-02-30").unwrap_err().contains("2026-03-01"));
    }
}
