//! What the slices share, below all of them: the context an update reads
//! (`Cx`) and hands back (`Out`, `Note`), the context a view reads
//! (`ViewCx`), and the small types every slice names (request ids, panes,
//! toasts, the layout, the session, the catalog and what is known).
//! Nothing here imports a slice or the root.

pub mod badges;
pub mod catalog;
pub mod colleagues;
pub mod cx;
pub mod known;
pub mod layout;
pub mod note;
pub mod pane;
pub mod req;
pub mod scroll;
pub mod session;
pub mod status;
pub mod vcx;
pub mod write;

pub use badges::{Badge, Badges};
pub use colleagues::Colleagues;
pub use cx::{Contacts, Cx, NoContacts, Out, UNDO_WINDOW_SECS};
pub use note::Note;
pub use pane::Pane;
pub use req::ReqId;
pub use status::ToastKind;
pub use vcx::ViewCx;
pub use write::WriteKind;
