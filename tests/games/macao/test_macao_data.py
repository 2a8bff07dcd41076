"""Macao's data agrees with everything the rulebook prints."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pbem.games.macao import data
from pbem.games.macao.words import card_help, card_name


@pytest.mark.parametrize("version", data.DATA_VERSIONS)
def test_card_counts_kinds_and_tribute_distribution_as_printed(version):
    cards = [data.CARDS[c] for c in data.card_ids(version)]
    assert len(set(data.card_ids(version))) == 120
    kinds = Counter(c.kind for c in cards)
    assert kinds == {"amt": 24, "bau": 44, "person": 52}
    tribute = Counter(c.tribute for c in cards)
    assert tribute == {(0, 0): 20, (1, 1): 20, (2, 2): 20, (0, 1): 30, (1, 2): 30}


def test_card_ids_never_repeat_across_versions_and_the_current_one_is_new():
    assert data.DATA_VERSION == data.DATA_VERSIONS[-1] != "1-reconstructed"
    v1, v2 = set(data.deck_ids("1-reconstructed")), set(data.deck_ids())
    assert not v1 & v2 and len(data.CARDS) == 24 + 96 + 96
    assert set(data.DECK_IDS) == v2
    with pytest.raises(ValueError):
        data.deck_ids("0")


def test_version_2_has_every_named_card_and_the_twelve_marked_reconstructed():
    names = Counter(data.CARDS[c].name for c in data.deck_ids())
    for name in data.NAMED_WITHOUT_EFFECT:
        assert names[name] >= 1, name
    assert names["Baronesse"] == 3
    assert all(names[f"{good}lager"] == 1 for good in data.GOODS)
    twelve = {"Brunnen", "Kanonier", "Tor", "Wachposten", "Herold", "Nachtwächter",
              "Spekulant", "Zimmermann", "Leuchtturm", "Schiffsjunge", "Botschaft", "Diplomat"}
    assert twelve < set(data.NAMED_WITHOUT_EFFECT)
    for cid in data.deck_ids():
        card = data.CARDS[cid]
        if card.name in twelve:
            assert card.note.startswith("reconstructed: ") and "R 3." in card.note, card.name
            assert not card.printed
    # 48 cards R names (Baronesse thrice) + 12 = 60 distinct entries, the rest repeats
    firsts = [c for c in data.deck_ids() if not data.CARDS[c].note.startswith(
        "reconstructed: a repeat")]
    assert len(firsts) == 60


def test_four_office_cards_per_colour_costing_one_to_four_of_it():
    for colour in data.COLOURS:
        costs = sorted(c.cost for c in data.CARDS.values()
                       if c.kind == "amt" and c.cost[0] == colour)
        assert costs == [colour * k for k in range(1, 5)]
    assert len(set(data.OFFICE_CATEGORY.values())) == 6


def test_every_card_costs_1_to_4_cubes_uses_the_vocabulary_and_reads_in_one_line():
    for cid, card in data.CARDS.items():    # both versions' cards
        assert 1 <= len(card.cost) <= 4 and set(card.cost) <= set(data.COLOURS)
        assert card.effect[0] in data.EFFECT_KINDS
        for lang in ("en", "de"):
            assert card_name(cid, lang) and "\n" not in card_help(cid, lang)


def test_board_30_districts_6_dark_16_wall_fields_8_harbours_one_per_good():
    assert len(data.DISTRICT_COST) == 30 and len(data.DARK_DISTRICTS) == 6
    assert data.WALL_FIELDS == 16
    assert sorted(g for g, _ in data.HARBOURS.values()) == sorted(data.GOODS)
    for _, spaces in data.HARBOURS.values():
        assert len(spaces) == data.TILES_PER_GOOD and list(spaces) == sorted(spaces, reverse=True)
    fields = {a for a, _ in data.SEA_EDGES} | {b for _, b in data.SEA_EDGES}
    assert set(data.HARBOURS) <= fields and data.START_FIELD in fields


def test_printed_card_texts_are_the_rulebooks():
    path = Path(__file__).resolve().parents[4] / "shared" / "rules" / "macao-de.txt"
    if not path.exists():
        pytest.skip("the rulebook copy is not beside the repository")
    rulebook = path.read_text(encoding="utf-8")
    for card in data.CARDS.values():
        if card.printed:
            first = card.text.split("„")[0][:40]
            assert first in rulebook, card.name


def test_the_data_page_names_the_reconstructed_cards_and_the_version():
    from pbem.games.macao import GAME

    about = " ".join(GAME.about_data.split())
    assert "no public source prints their effects" in about
    for name in ("Brunnen", "Kanonier", "Tor", "Wachposten", "Herold", "Nachtwächter",
                 "Spekulant", "Zimmermann", "Leuchtturm", "Schiffsjunge", "Botschaft",
                 "Diplomat"):
        assert name in about, name
    assert data.DATA_VERSION in about and "1-reconstructed" in about
    assert GAME.data_version == data.DATA_VERSION
