"""Private notes: one per seat, written on the seat page and read there only.

A note is saved as typed (the page posts it while its player types, and its form's
Save button does the same without scripts).  Nothing else reads the ``Note`` table:
no mail, no other seat's page, no public page, not the archive.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime

from pbem.i18n import gettext
from pbem.models import Note, Seat, utcnow

#: the longest note, in characters (after control characters are removed)
MAX_LENGTH = 5000


class NoteError(Exception):
    """A note that will not be kept: ``reason`` is a ``Refusal`` reason."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def clean(text: str) -> str:
    """``text`` without control or format characters, but for its line breaks and tabs
    (a note has paragraphs; a bidi override could still turn the page around)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(char for char in text if char in "\n\t" or unicodedata.category(char)
                   not in ("Cc", "Cf", "Cs", "Co", "Cn"))


def read(seat: Seat) -> str:
    """The seat's note ("" when it has none): as it was read with the table, where the
    page read it so (``models.table_of(note_of=…)``), else now."""
    if "note_text" in vars(seat):
        return seat.note_text or ""
    row = Note.get_or_none(Note.seat == seat.id)
    return row.text if row is not None else ""


def save(seat: Seat, raw: str, now: datetime | None = None) -> str:
    """Keep ``raw`` as the seat's note (an empty one is removed); the text kept."""
    text = clean(raw)
    if len(text) > MAX_LENGTH:
        raise NoteError("bad-form", gettext(
            "The note has %(length)s characters; a note takes at most %(most)s. Nothing "
            "was saved: please shorten it.", length=len(text), most=MAX_LENGTH))
    if not text.strip():
        Note.delete().where(Note.seat == seat.id).execute()
        return ""
    now = now or utcnow()
    updated = (Note.update(text=text, updated_at=now).where(Note.seat == seat.id)
               .execute())
    if not updated:
        Note.create(seat=seat.id, text=text, updated_at=now)
    return text
