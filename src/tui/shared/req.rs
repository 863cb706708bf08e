/// A request id: unique for the life of the app.
pub type ReqId = u64;
