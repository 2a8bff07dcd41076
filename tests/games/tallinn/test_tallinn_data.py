"""The card data keeps to everything the sources say (pbem/games/tallinn/data.toml)."""

from __future__ import annotations

from collections import Counter

from pbem.games.tallinn import GAME, data


def test_ten_cards_numbered_1_to_10_with_two_halves_of_1_to_3_persons():
    assert list(data.EINFLUSSKARTEN) == [str(n) for n in range(1, 11)]
    for card in data.EINFLUSSKARTEN.values():
        for half in (card.a, card.b):
            assert 1 <= half.total() <= 3, card
            assert not half.wappen


def test_two_coin_halves_per_estate_at_most_one_per_card_each_on_one_person():
    coins = Counter()
    for card in data.EINFLUSSKARTEN.values():
        assert not (card.a.muenze and card.b.muenze), card
        for half in (card.a, card.b):
            if half.muenze:
                assert half.total() == 1  # the coin is drawn on the one figure
                coins[half.coin_estate()] += 1
    assert coins == {"K": 2, "R": 2, "M": 2}


def test_the_printed_cards():
    # spiele-offensive.de: one half 2 monks, the other 1 knight with a coin
    assert data.EINFLUSSKARTEN["1"].a == data.Haelfte(M=2)
    assert data.EINFLUSSKARTEN["1"].b == data.Haelfte(R=1, muenze=True)
    # the rulebook's phase 1 illustration: "2 Kaufleute" / "1 Ritter und 1 Mönch"
    assert data.EINFLUSSKARTEN["10"].a == data.Haelfte(K=2)
    assert data.EINFLUSSKARTEN["10"].b == data.Haelfte(R=1, M=1)
    assert data.EINFLUSSKARTEN["1"].status == data.PRINTED
    # ... read as the two halves of one card: pbem's reading, so not marked printed
    assert data.EINFLUSSKARTEN["10"].status == data.PARTLY
    assert "10" in data.reconstructed_cards()


def both(card: str) -> Counter:
    k = data.karte(card)
    return Counter(k.a.persons()) + Counter(k.b.persons())


def test_the_towers_of_the_final_scoring_example_exist():
    # Malte: "1 Ritter, 1 Kaufmann und 4 Mönche" on his one tower card
    assert both("7") == Counter(K=1, R=1, M=4)
    # Heike: "insgesamt 5 Ritter, 4 Kaufleute und 1 Mönch" on her two tower cards
    assert both("8") + both("10") == Counter(K=4, R=5, M=1)


def test_every_estate_has_as_many_persons_in_a_set():
    total = Counter()
    for card in data.EINFLUSSKARTEN:
        total += both(card)
    assert total == Counter(K=13, R=13, M=13)


def test_start_cards_one_estate_twice_one_once_one_not():
    assert len(data.STARTKARTEN) == 6
    patterns = set()
    for start in data.STARTKARTEN.values():
        counts = start.persons.persons()
        assert sorted(counts.values()) == [0, 1, 2], start
        patterns.add(tuple(counts[s] for s in data.STAENDE))
    assert len(patterns) == 6  # all six of the pattern, each once
    # the two named by spiele-offensive.de
    assert data.STARTKARTEN["S1"].persons.persons() == {"K": 0, "R": 1, "M": 2}
    assert data.STARTKARTEN["S2"].persons.persons() == {"K": 1, "R": 2, "M": 0}


def test_the_legat():
    assert data.LEGAT_KARTE.a.persons() == {"K": 1, "R": 1, "M": 1}
    assert data.LEGAT_KARTE.b.wappen and data.LEGAT_KARTE.b.total() == 0


def test_every_value_says_where_it_comes_from_and_the_description_says_what_is_ours():
    for card in list(data.EINFLUSSKARTEN.values()) + [data.LEGAT_KARTE]:
        assert card.status in (data.PRINTED, data.PARTLY, data.RECONSTRUCTED) and card.source
    for start in data.STARTKARTEN.values():
        assert start.status in (data.PRINTED, data.RECONSTRUCTED) and start.source
    assert data.reconstructed_cards() == ["2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "S3", "S4", "S5", "S6"]
    assert "reconstructed" in GAME.about_data and "reconstructed" not in GAME.description
    assert data.DATA_VERSION in GAME.about_data and GAME.data_version == data.DATA_VERSION
    for lang in ("en", "de"):
        assert all(line and "\n" not in line for line in data.HELP[lang].values())
