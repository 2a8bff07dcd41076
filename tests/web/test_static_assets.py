"""The service's static files named by their content (``pbem.web.assets``): a browser
keeps them a year and asks again only when a release changes them."""

from __future__ import annotations

import hashlib
import re

from pbem.web import STATIC_DIR
from pbem.web.assets import KEPT_SECONDS, RECHECK_SECONDS, Versions

LINKED = re.compile(r'(?:href|src)="(/static/([^"?]+)\?v=([0-9a-f]+))"')


def _linked(html: str) -> dict[str, tuple[str, str]]:
    return {name: (url, version) for url, name, version in LINKED.findall(html)}


def test_pages_name_each_static_file_by_the_start_of_its_sha256(sqlite_client):
    linked = _linked(sqlite_client.get("/new/visby").text)
    assert {"style.css", "favicon.svg", "zone.js"} <= set(linked)
    for name, (_, version) in linked.items():
        assert version == hashlib.sha256((STATIC_DIR / name).read_bytes()).hexdigest()[:12]


def test_a_versioned_file_is_kept_a_year_and_the_rest_asked_for_again(sqlite_client):
    url, _ = _linked(sqlite_client.get("/").text)["style.css"]
    kept = sqlite_client.get(url)
    assert kept.status_code == 200 and "min-height" in kept.text
    assert kept.headers["Cache-Control"] == f"public, max-age={KEPT_SECONDS}, immutable"
    # no version, or one the file no longer has (a page of the release before): the
    # current file, to be asked for again each time
    for other in ("/static/style.css", "/static/style.css?v=000000000000"):
        answer = sqlite_client.get(other)
        assert answer.status_code == 200 and answer.text == kept.text
        assert answer.headers["Cache-Control"] == "no-cache"
    assert sqlite_client.get("/static/missing.css?v=1").status_code == 404


def test_an_edited_file_gets_a_new_version(tmp_path):
    (tmp_path / "style.css").write_text("body { color: red }")
    versions = Versions(str(tmp_path))
    first = versions.of("style.css")
    assert first == versions.of("style.css")
    (tmp_path / "style.css").write_text("body { color: blue; }")
    assert versions.of("style.css") not in (None, first)
    assert versions.of("../etc/passwd") is None and versions.of("gone.css") is None


def test_a_page_names_its_files_under_the_root_it_is_served_at(sqlite_client):
    """The header's addresses are made once per application root (``_constant_urls``):
    the same app behind a prefix names them under it, and again without one."""
    plain = sqlite_client.get("/").text
    prefixed = sqlite_client.get("/", base_url="http://localhost/pbem/").text
    assert '<a class="brand" href="/">' in plain
    assert '<a class="brand" href="/pbem/">' in prefixed
    assert set(_linked(plain)) <= set(re.findall(r'"/pbem/static/([^"?]+)\?v=', prefixed))
    assert '<a class="brand" href="/">' in sqlite_client.get("/").text


def test_a_page_names_an_edited_file_by_its_new_version_a_moment_later(tmp_path, monkeypatch):
    (tmp_path / "style.css").write_text("body { color: red }")
    versions = Versions(str(tmp_path))
    clock = [100.0]
    monkeypatch.setattr("pbem.web.assets.time.monotonic", lambda: clock[0])
    first = versions.named("style.css")
    (tmp_path / "style.css").write_text("body { color: blue; }")
    assert versions.named("style.css") == first  # not looked at again at once
    clock[0] += RECHECK_SECONDS
    assert versions.named("style.css") not in (None, first)
