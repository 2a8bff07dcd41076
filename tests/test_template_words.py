"""The templates' ``_`` and ``gettext`` (``pbem.i18n._template_gettext``) say what Jinja's
newstyle gettext says, in every language, escaping or not, with fields or none."""

from __future__ import annotations

import jinja2
import pytest

from pbem import i18n

TEMPLATE = """{{ _("Your move") }}|{{ gettext("Your move") }}|{{ _("100%% sure") }}|\
{{ _("Seat %(number)s", number=n) }}|{{ _("Confirm: %(move)s", move=m) }}|\
{% trans %}Your notes{% endtrans %}|{% trans name=m %}your seat, {{ name }}{% endtrans %}|\
{% trans count=n %}{{ count }} move{% pluralize %}{{ count }} moves{% endtrans %}"""


def _jinjas(autoescape: bool) -> tuple[jinja2.Environment, jinja2.Environment]:
    ours = jinja2.Environment(autoescape=autoescape)
    i18n.install_jinja(ours)
    stock = jinja2.Environment(autoescape=autoescape, extensions=["jinja2.ext.i18n"])
    stock.install_gettext_callables(
        gettext=lambda s: i18n.translations(i18n.current()).ugettext(s),
        ngettext=lambda s, p, n: i18n.translations(i18n.current()).ungettext(s, p, n),
        newstyle=True)
    return ours, stock


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_templates_words_are_jinjas(autoescape, lang):
    ours, stock = _jinjas(autoescape)
    with i18n.in_language(lang):
        for n, m in [(1, "Glas <b>&</b>"), (2, "discard Wein"), (3, "%(x)s 50%")]:
            said = ours.from_string(TEMPLATE).render(n=n, m=m)
            assert said == stock.from_string(TEMPLATE).render(n=n, m=m)
            # a second time: from what was kept
            assert ours.from_string(TEMPLATE).render(n=n, m=m) == said
    if lang == "de":
        assert "Du bist am Zug" in said
    assert ("&lt;b&gt;" in ours.from_string(TEMPLATE).render(n=1, m="<b>")) is autoescape
