"""The kinds of mail a player controls: each a list of its own (RFC 2919 ``List-Id``)
with its own one-click unsubscribe (RFC 8058), switched on the settings page.

A mail's ``Outbox.kind`` says what it is; ``LIST_OF`` says which list it belongs to.
Turn and game news, reminders, table talk, results and games followed are the
player's to switch off one by one (``SWITCHABLE``); invitations, requests to confirm
an address and new links are answers to what someone asked for, so they have a list
of their own, which only "stop all mail" (or "never mail me again") stops.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pbem.config import Config
from pbem.i18n import N_

TURNS, REMINDERS, TALK, RESULTS, FOLLOWED = "turns", "reminders", "talk", "results", "followed"
#: the lists a player switches on and off, in the order the settings page shows them
SWITCHABLE = (TURNS, REMINDERS, TALK, RESULTS, FOLLOWED)
#: mail someone asked for (an invitation, a confirmation, new links, a join or a follow)
ASKED = "asked"

#: the list of each kind of outbox row
LIST_OF = {
    "turn": TURNS, "notice": TURNS, "digest": TURNS,
    "reminder": REMINDERS,
    "talk": TALK,
    "result": RESULTS,
    "follow": FOLLOWED,
}

#: what each list is, as the settings page and the unsubscribe page name it
LABELS = {
    TURNS: N_("Your move and news of your games (a game started, a timeout, a daily digest)"),
    REMINDERS: N_("Reminders before a deadline"),
    TALK: N_("Table talk of your games"),
    RESULTS: N_("Results of your games"),
    FOLLOWED: N_("Digests of games you follow"),
}


def list_of(kind: str) -> str:
    return LIST_OF.get(kind, ASKED)


def domain_of(config: Config) -> str:
    """The domain of our Message-IDs and List-Ids: the sender's (``[mail] from_address``),
    as RFC 5322 advises, else the server's host name."""
    address = config.get("mail", "from_address")
    domain = address.rpartition("@")[2].strip().strip(">").lower()
    if domain and all(c.isalnum() or c in ".-" for c in domain):
        return domain
    return urlsplit(config.get("server", "base_url")).hostname or "pbem.invalid"


def list_id(kind: str, config: Config) -> str:
    """The ``List-Id`` of a mail of ``kind``: 'pbem turns <turns.pbem.example.org>'.
    Mail clients and providers group and filter by it, one list per kind."""
    name = list_of(kind)
    return f"pbem {name} <{name}.{domain_of(config)}>"
