//! The write tools: offered only with `--allow-writes` (or, through a
//! team hub, to an admin's token).

use rmcp::model::Tool;
use serde_json::json;

use super::blocks::{Hints, contact, input, output, tool, written};
use crate::mcp::args::NOTE_MAX_CHARS;

pub(super) fn send_template() -> Tool {
    let s = json!({ "type": "string" });
    tool(
        "send_template",
        "Send a template",
        "Send an approved template with its values (what the service allows after the 24-hour window closes). \
         Without confirm: true it only previews the filled text and sends nothing",
        Hints(false, true, false, true),
        input(
            &["contact", "template"],
            json!({ "contact": contact(),
            "template": { "type": "string", "minLength": 1, "description": "The template's uuid or title" },
            "values": { "type": "array", "items": { "type": "string" }, "description": "{{1}}, {{2}}… in order" },
            "confirm": { "type": "boolean", "description": "true: send it; otherwise a preview" } }),
        ),
        output(
            &["contact", "template", "text", "sent"],
            json!({ "contact": s, "template": s, "title": s,
            "text": s, "sent": { "type": "boolean" }, "message": s }),
        ),
    )
}

pub(super) fn writes() -> Vec<Tool> {
    let one = input(&["contact"], json!({ "contact": contact() }));
    let tags = input(
        &["contact", "tags"],
        json!({ "contact": contact(),
        "tags": { "type": "array", "minItems": 1, "items": { "type": "string", "minLength": 1 } } }),
    );
    let woken = output(
        &["woken", "name"],
        json!({ "woken": { "type": "string" }, "name": { "type": "string" } }),
    );
    vec![
        tool(
            "close",
            "Close conversation",
            "Close the contact's conversation (undoable: `frontdesk undo`)",
            Hints(false, false, true, false),
            one.clone(),
            written(),
        ),
        tool(
            "open",
            "Reopen conversation",
            "Reopen the contact's conversation",
            Hints(false, false, true, false),
            one.clone(),
            written(),
        ),
        tool(
            "tag",
            "Add tags",
            "Add tags to the contact, keeping the others",
            Hints(false, false, true, false),
            tags.clone(),
            written(),
        ),
        tool(
            "untag",
            "Remove tags",
            "Remove tags from the contact",
            Hints(false, true, true, false),
            tags,
            written(),
        ),
        tool(
            "assign",
            "Assign",
            "Assign the contact to a collaborator (`email`) or a team (`team`), replacing the current one; see \
             list_collaborators for who is available and their load",
            Hints(false, true, true, false),
            input(
                &["contact"],
                json!({ "contact": contact(),
                "email": { "type": "string", "minLength": 1, "description": "The collaborator's email" },
                "team": { "type": "string", "minLength": 1, "description": "A team's name or uuid" } }),
            ),
            written(),
        ),
        tool(
            "unassign",
            "Unassign",
            "Take the contact's assignee away (it goes to Unassigned)",
            Hints(false, true, true, false),
            one.clone(),
            written(),
        ),
        tool(
            "snooze",
            "Snooze",
            "Snooze the contact's conversation on this machine: it leaves the agent's work views until the time \
             comes or the customer writes, then comes back marked in the inbox",
            Hints(false, false, true, false),
            input(
                &["contact", "until"],
                json!({ "contact": contact(),
                "until": { "type": "string", "minLength": 1, "description": "When it comes back, as the agent \
                    would type it, in this machine's time zone: 10m, 2h, 3d, tonight, tomorrow (9:00), tomorrow \
                    14:00, fri 14:00, next monday, 14:00, or reply (until the customer writes)" } }),
            ),
            output(
                &["snoozed", "name", "until", "comes_back"],
                json!({ "snoozed": { "type": "string" },
                "name": { "type": "string" }, "until": { "type": ["string", "null"] },
                "comes_back": { "type": "string" } }),
            ),
        ),
        tool(
            "unsnooze",
            "Wake",
            "Wake a snoozed conversation now: it comes back marked in the inbox",
            Hints(false, false, true, false),
            one,
            woken,
        ),
        tool(
            "send_reply",
            "Send a reply",
            "Send a text reply to the customer now: it cannot be taken back (the service refuses free text 24 \
             hours after the customer last wrote). At most 4,096 characters",
            Hints(false, true, false, true),
            input(
                &["contact", "text"],
                json!({ "contact": contact(),
                "text": { "type": "string", "minLength": 1, "maxLength": 4096 } }),
            ),
            output(
                &["sent", "message", "status"],
                json!({ "sent": { "type": "string" }, "message": { "type": "string" },
                "status": { "type": "string" } }),
            ),
        ),
    ]
}

pub(super) fn add_note() -> Tool {
    let s = json!({ "type": "string" });
    tool(
        "add_note",
        "Add an internal note",
        "Write an internal note on the contact's conversation: the team sees it, the customer does not. Tag \
         a colleague with @ and their name (@Dana) as in the inbox. It is recorded in the run history but \
         cannot be taken back (the service cannot delete a note)",
        Hints(false, false, false, false),
        input(
            &["contact", "text"],
            json!({ "contact": contact(),
            "text": { "type": "string", "minLength": 1, "maxLength": NOTE_MAX_CHARS,
                "description": "The note; @Name tags a colleague" } }),
        ),
        output(&["noted", "text"], json!({ "noted": s, "name": s, "text": s })),
    )
}
