"""A card's help is written from the data version the game plays on: an operator's
corrected file (``[games] data_dir``, ``DataSets.load``) changes what the help, the
table in words and the picture say for games started on it, and the shipped game still
says the shipped values."""

from __future__ import annotations

import re

from pbem.games.macao import GAME, data

SHIPPED = ('wirkung = ["end_pp", 3]\ntext = "Spielende: 3 PP."\nquelle = "reconstructed: R '
           'names it; its text and effect are worked out from what R says it does"\n'
           'kosten = { wert = "yv",')
#: the Statue scores 4 at the end instead of 3 and costs a third cube (both pbem's values)
CORRECTED = ('wirkung = ["end_pp", 4]\ntext = "Spielende: 4 PP."\nquelle = "reconstructed: R '
             'names it; its text and effect are worked out from what R says it does"\n'
             'kosten = { wert = "yvv",')


def _corrected_version() -> str:
    text = data.SETS.shipped.text
    assert text.count(SHIPPED) == 1
    text = text.replace(SHIPPED, CORRECTED).replace('version = "2-reconstructed"',
                                                    'version = "2-statue"')
    return GAME.load_data(text, "macao.toml")


def _statue_on_the_table(state: dict) -> tuple[dict, str]:
    """The state with a Statue on offer and active for seat 0 (its help in the text)."""
    with GAME.data_sets.using(state.get("data_version")):
        statue = next(c for c in data.deck_ids() if data.CARDS[c].name == "Statue")
    state["display"] = [statue]
    state["seats"][0]["active"] = [statue]
    return state, statue


def _said(state: dict, lang: str) -> tuple[str, str]:
    view = GAME.view(state, 0)
    return (GAME.render_text(view, ["Ann", "Bo"], lang),
            GAME.picture(view, ["Ann", "Bo"], lang))


def test_the_help_says_the_corrected_value_and_the_shipped_game_the_shipped_one():
    version = _corrected_version()
    corrected, statue = _statue_on_the_table(GAME.setup_version(2, None, "tide", version))
    shipped, same = _statue_on_the_table(GAME.setup(2, None, "tide"))
    assert corrected["data_version"] == version and statue == same
    for lang, words in (("en", "Game end: {} PP."), ("de", "Spielende: {} PP.")):
        text, picture = _said(corrected, lang)
        assert words.format(4) in text and words.format(3) not in text
        assert re.search(f"<title>Statue[^<]*{re.escape(words.format(4))}", picture)
        text, picture = _said(shipped, lang)
        assert words.format(3) in text and words.format(4) not in text
        assert re.search(f"<title>Statue[^<]*{re.escape(words.format(3))}", picture)
    # the cost the table in words shows is the version's too (one cube more)
    assert "On offer: Statue (statue)◇ [1 grey, 2 violet]" in _said(corrected, "en")[0]
    assert "On offer: Statue (statue)◇ [1 grey, 1 violet]" in _said(shipped, "en")[0]
    # and the reconstructed mark stays beside the corrected value: in the help, with its
    # line; in the table in words, after the card's name, with the note once at the end
    assert "4 PP. ◇ Text, cost and tribute reconstructed" in _said(corrected, "en")[1]
    text = _said(corrected, "en")[0]
    assert "Game end: 4 PP." in text and text.count("◇ reconstructed: ") == 1
    assert text.endswith("agree with the rulebook.")
