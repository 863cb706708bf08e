//! The answer to a report's computation.

use crate::report::Report;
use crate::tui::shared::ReqId;

#[derive(Debug, Clone)]
pub enum ReportsMsg {
    Computed { id: ReqId, result: Result<Report, String> },
}
