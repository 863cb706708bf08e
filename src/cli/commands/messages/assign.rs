//! `assign_on_reply` for `messages send`: a reply to an Unassigned
//! conversation assigns it to the sender, after the send went out, through
//! the checked owner write (`triage::owner`): a conversation a colleague
//! took meanwhile stays theirs, and the agent is told. The message is sent
//! whatever happens here: anything that goes wrong is a line on stderr.

use crate::api::{Client, Contact};
use crate::cli::ctx::Ctx;
use crate::triage::bulk::Action;
use crate::triage::owner::{Checked, Seen, write_checked};
use crate::triage::write::Settled;

/// `contact` as read just before the send; `uuid` its id.
pub(super) async fn after_reply(ctx: &mut Ctx<'_>, client: &Client, uuid: &str, contact: &Contact) {
    let Ok(settings) = ctx.settings() else { return };
    if !settings.alerts.assign_on_reply() {
        return;
    }
    let unassigned = contact.assigned_user.as_deref().is_none_or(|a| a.trim().is_empty());
    if !unassigned {
        return;
    }
    let configured = settings.user_email.clone();
    let Some(me) = super::super::whoami::me(ctx, configured).await else {
        let _ = writeln!(
            ctx.err,
            "frontdesk: not assigned to you on reply: your collaborator email is not known (set user_email)"
        );
        return;
    };
    let action = Action::Assign(me.clone());
    let said = match write_checked(client, uuid, "", &action, Some(&Seen::of(contact)), Some(&me)).await {
        Ok(Checked::Done(done)) => match done.settled {
            Settled::Applied(_) => "assigned to you (you replied; assign_on_reply)".to_string(),
            Settled::Failed(e) | Settled::Unknown(e) => format!("not assigned to you on reply: {e}"),
            Settled::Skipped(_) => "not assigned to you on reply: it changed".to_string(),
        },
        Ok(Checked::Changed(c)) => format!("not assigned to you on reply: {}", c.what),
        Err(e) => format!("not assigned to you on reply: {e}"),
    };
    let _ = writeln!(ctx.err, "frontdesk: {}", crate::text::sanitize_line(&said));
}
