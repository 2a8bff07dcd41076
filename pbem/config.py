"""Settings: embedded defaults, then ``config.ini``, then environment variables.

Every setting has a safe working default here, so pbem runs with no file at
all (SQLite and mail into a local folder).  ``config.ini`` in the working
directory (or the file named by ``PBEM_CONFIG``) overrides them, and an
environment variable ``PBEM_<SECTION>_<KEY>`` overrides both (for example
``PBEM_DATABASE_URL``).  ``DATABASE_URL`` is honoured too, as hosts set it.
"""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass
from pathlib import Path

DEV_SECRET = "dev-secret-do-not-use-in-production"

DEFAULTS: dict[str, dict[str, str]] = {
    "server": {
        "base_url": "http://127.0.0.1:5000",
        "secret_key": DEV_SECRET,
        "production": "false",
        "instance": "instance",
        "host": "127.0.0.1",
        "port": "5000",
    },
    "database": {
        # empty: SQLite file pbem.db in the instance folder
        "url": "",
    },
    "mail": {
        "from_address": "pbem@localhost",
        "from_name": "pbem",
        # "folder": write each mail as a .eml file into mail/ under the instance
        # folder (shown at /dev/mail in development); "smtp": deliver to smtp_host.
        "transport": "folder",
        "smtp_host": "localhost",
        "smtp_port": "25",
        "smtp_user": "",
        "smtp_password": "",
        "smtp_starttls": "false",
        "smtp_timeout": "20",
        "max_attempts": "8",
        "backoff_seconds": "60",
    },
    "inbound": {
        # replies to mails play and talk (README "Replies"): false, and mails carry no
        # personal Reply-To (where nothing routes replies to pbem)
        "replies": "true",
        # the LMTP listener ``pbem serve`` starts (port 0: none)
        "lmtp_host": "127.0.0.1",
        "lmtp_port": "8025",
        # the largest mail taken, in bytes; answers one address gets per hour at most
        "max_bytes": "1000000",
        "answers_per_hour": "10",
        # days a mail that came in is remembered (processed once however often it
        # arrives); the tick forgets older ones (0: never)
        "keep_days": "30",
        # POST /inbound/mail takes raw MIME with this secret (empty: the endpoint is off)
        "webhook_secret": "",
        # IMAP polling of a mailbox at every tick (empty host: off)
        "imap_host": "",
        "imap_port": "993",
        "imap_ssl": "true",
        "imap_user": "",
        "imap_password": "",
        "imap_mailbox": "INBOX",
    },
    "links": {
        "move_link_days": "30",
        "invite_link_days": "30",
    },
    "limits": {
        "games_per_creator": "10",
        "invitations_per_creator": "30",
        "games_per_client": "30",
        "invitations_per_invitee": "3",
        "follows_per_client": "10",
        "joins_per_client": "10",
        "talk_per_seat_hour": "10",
        "talk_per_game_day": "100",
        "talk_mail_after_minutes": "60",
    },
    "clock": {
        "days_per_move": "3",
        # points before a deadline: "50%" = half of the turn's time gone, "24h" = 24 hours left
        "reminders": "50%, 24h",
        # timeout ladder: a grace period, then the default move; after N timeouts in a row
        # a bot takes the seat (the owner can reclaim it) or, with "drop", plays it to the end
        "grace_hours": "12",
        "timeouts_before_bot": "3",
        "after_timeouts": "bot",
    },
    "vacation": {
        # accrued monthly: a twelfth of this at the start of each month
        "days_per_year": "14",
    },
    "scheduler": {
        "enabled": "true",
        "interval_seconds": "60",
        # a scheduler that finds another one ticking tries the lock this often, and so
        # takes over this long after the other dies (see pbem.time.scheduler.Standby)
        "lock_retry_seconds": "5",
    },
    "games": {
        # a folder of the operator's corrected data files, <game>.toml (see
        # `pbem data check`); empty: the data shipped with each game
        "data_dir": "",
    },
    "archive": {
        "site_dir": "site",
    },
    "bots": {
        # a searching bot (levels "normal" and "strong") thinks for its level's seconds of
        # CPU per move; a number here caps its iterations as well (0: no cap), so that its
        # moves repeat exactly (the test suite's setting) or cost less on a small machine
        "max_iterations": "0",
    },
}


class ConfigError(RuntimeError):
    pass


@dataclass(frozen=True)
class Config:
    values: dict[str, dict[str, str]]

    def get(self, section: str, key: str) -> str:
        return self.values[section][key]

    def getint(self, section: str, key: str) -> int:
        return int(self.get(section, key))

    def getfloat(self, section: str, key: str) -> float:
        return float(self.get(section, key))

    def getbool(self, section: str, key: str) -> bool:
        return self.get(section, key).strip().lower() in {"1", "true", "yes", "on"}

    @property
    def instance_path(self) -> Path:
        return Path(self.get("server", "instance")).resolve()

    @property
    def database_url(self) -> str:
        url = self.get("database", "url")
        if url:
            return url
        return f"sqlite:///{self.instance_path / 'pbem.db'}"

    @property
    def mail_folder(self) -> Path:
        return self.instance_path / "mail"

    def check_production(self) -> None:
        """Refuse to run a production deployment on the development secret."""
        # every key of a rotation list ("old, new") verifies links, so none may be the
        # published development secret
        keys = [k.strip() for k in self.get("server", "secret_key").split(",") if k.strip()]
        if self.getbool("server", "production") and (not keys or DEV_SECRET in keys):
            raise ConfigError(
                "production = true but secret_key is (or keeps) the development secret: set "
                "PBEM_SERVER_SECRET_KEY or secret_key in config.ini to a long random value"
            )


def load_config(path: str | os.PathLike | None = None, env: dict[str, str] | None = None,
                overrides: dict[str, dict[str, str]] | None = None) -> Config:
    env = dict(os.environ if env is None else env)
    values = {section: dict(keys) for section, keys in DEFAULTS.items()}
    path = path or env.get("PBEM_CONFIG") or "config.ini"
    parser = configparser.ConfigParser(interpolation=None)
    if Path(path).is_file():
        parser.read(path, encoding="utf-8")
        for section in parser.sections():
            if section not in values:
                raise ConfigError(f"{path}: unknown section [{section}]")
            for key, value in parser.items(section):
                if key not in values[section]:
                    raise ConfigError(f"{path}: unknown setting {key} in [{section}]")
                values[section][key] = value
    for section, keys in values.items():
        for key in keys:
            name = f"PBEM_{section.upper()}_{key.upper()}"
            if name in env:
                keys[key] = env[name]
    if "DATABASE_URL" in env and "PBEM_DATABASE_URL" not in env:
        values["database"]["url"] = env["DATABASE_URL"]
    for section, keys in (overrides or {}).items():
        values[section].update(keys)
    return Config(values)
