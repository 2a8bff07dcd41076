"""What every part of the server needs at hand: settings, link signer, templates.

One ``Context`` is built from the configuration at start-up (by the web app
factory, the CLI or a test) and passed down explicitly; nothing reads global
settings behind the caller's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from pbem import datadir, i18n
from pbem.config import Config, load_config
from pbem.games.render import seat_filter, seat_lines, seat_lines_text, seat_text
from pbem.links import Signer

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


@dataclass
class Context:
    config: Config
    signer: Signer = field(init=False)
    html: jinja2.Environment = field(init=False)
    text: jinja2.Environment = field(init=False)

    def __post_init__(self) -> None:
        keys = [k.strip() for k in self.config.get("server", "secret_key").split(",") if k.strip()]
        self.signer = Signer(keys)
        loader = jinja2.FileSystemLoader(str(TEMPLATES_DIR))
        self.html = jinja2.Environment(loader=loader, autoescape=True,
                                       undefined=jinja2.StrictUndefined)
        self.text = jinja2.Environment(loader=loader, autoescape=False,
                                       undefined=jinja2.StrictUndefined,
                                       keep_trailing_newline=True)
        i18n.install_jinja(self.html)
        i18n.install_jinja(self.text)
        self.html.filters["seats"] = seat_filter
        self.text.filters["seats"] = seat_text
        self.html.filters["seat_lines"] = seat_lines
        self.text.filters["seat_lines"] = seat_lines_text
        # the corrected data files running games started on, found again after a restart
        datadir.register_kept(self.config)

    @property
    def base_url(self) -> str:
        return self.config.get("server", "base_url").rstrip("/")

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"


def make_context(**overrides: dict[str, str]) -> Context:
    return Context(load_config(overrides=overrides or None))
