"""Every game's data file: it passes ``pbem data check``, a correction may change a
reconstructed value but never a printed or sourced one, and the rulebook's constraints
hold; players read the reconstructed mark in card help, in English and German."""

from __future__ import annotations

import importlib

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.games import EXAMPLES, game_names, get_example, get_game
from pbem.games.datafile import MARK, DataFileError, DataSets
from pbem.games.riga import GAME as RIGA
from pbem.games.riga import data as riga_data

GAMES = [get_game(n) for n in game_names()] + [get_example(n) for n in EXAMPLES]
WITH_FILES = [g.name for g in GAMES if g.data_sets is not None]


@pytest.mark.parametrize("name", WITH_FILES)
def test_pbem_data_check_passes_on_every_shipped_file(name):
    out = CliRunner().invoke(main, ["data", "check", name])
    assert out.exit_code == 0, out.output
    assert "ok, version" in out.output and "(the shipped values)" in out.output


def _riga(*changes: tuple[str, str]) -> str:
    text = riga_data.SETS.shipped.text.replace('version = "1-reconstructed"',
                                               'version = "1-korrigiert"')
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_a_file_that_changes_a_printed_value_is_refused_naming_it(tmp_path):
    # Danzig's Tuch is worth 5: the rulebook's Danzig example
    old = "[stadtwert.Danzig]\nTuch = { wert = 5,"
    text = _riga((old, old.replace("5", "7")))
    path = tmp_path / "riga.toml"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["data", "check", "riga", str(path)])
    assert out.exit_code == 1
    assert "stadtwert.Danzig.Tuch.wert is given by a source (Riga rulebook" in out.output
    assert "5, not 7" in out.output and "refused" in out.output
    with pytest.raises(DataFileError, match=r"stadtwert\.Danzig\.Tuch\.wert"):
        RIGA.load_data(text)


def test_a_reconstructed_value_may_change_and_the_check_lists_it(tmp_path):
    old = '[gebaeude.Festung-Visby]\nkosten = { wert = 9,'
    text = _riga((old, old.replace("9", "10")))
    path = tmp_path / "riga.toml"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["data", "check", "riga", str(path)])
    assert out.exit_code == 0, out.output
    assert "gebaeude.Festung-Visby.kosten.wert: 9 -> 10" in out.output
    version = RIGA.load_data(text)
    assert version.startswith("1-korrigiert+")
    state = RIGA.setup_version(3, None, "tide", version)
    assert state["data_version"] == version
    # the game reads its own version's values while it plays, the shipped ones outside
    with RIGA.data_sets.using(version):
        assert riga_data.gebaeude("Festung-Visby").kosten == 10
    assert riga_data.gebaeude("Festung-Visby").kosten == 9


def test_the_rulebooks_constraints_refuse_a_file_that_breaks_them():
    # two cities where Korn cannot pay: the designer says exactly one
    old = "(Tuch's +2 must be in Stockholm)\" }\nGlas = { wert = 4,"
    text = _riga((old, old.replace("wert = 4", 'wert = "–"')))
    checked, _ = RIGA.data_sets.check(text)
    assert any("Glas must be '–' in exactly one city" in e for e in checked.errors)
    # Archiv and Schatzkammer in Visby cost 16 together (rulebook example)
    old = '[gebaeude.Archiv-Visby]\nkosten = { wert = 8,'
    checked, _ = RIGA.data_sets.check(_riga((old, old.replace("8", "9"))))
    assert any("cost 16 together" in e for e in checked.errors)


def test_a_file_that_is_not_the_schema_is_refused_with_the_path():
    checked, _ = RIGA.data_sets.check(_riga(("[grundwert]\n", "[grundwert]\nSalz = 3\n")))
    assert not checked.ok and "unknown field `Salz` - at `$.grundwert`" in checked.errors[0]


def test_the_mark_is_in_a_buildings_help_in_both_languages():
    english = riga_data.help_line("Festung-Visby", "en")
    german = riga_data.help_line("Festung-Visby", "de")
    assert f"{MARK} Cost and points reconstructed" in english
    assert f"{MARK} Kosten und Punkte rekonstruiert" in german
    # the Markthalle in Danzig: its cost is printed (rulebook example), its points not
    assert f"{MARK} Points reconstructed" in riga_data.help_line("Markthalle-Danzig", "en")


def test_the_shipped_values_are_plain_globals_until_another_version_is_registered():
    from pbem.games.ziehen import data as ziehen_data

    sets = DataSets("pbem.games.ziehen", ziehen_data.Daten, ziehen_data._derive,
                    ziehen_data._constraints)
    namespace: dict = {"DATA_VERSION": "the module's own"}
    sets.install(namespace)
    assert namespace["CARDS"] is sets.shipped.derived["CARDS"]  # no __getattr__ on the way
    assert namespace["DATA_VERSION"] == "the module's own"  # a name it defines stays its own
    corrected = sets.shipped.text.replace('version = "1"', 'version = "2"').replace(
        "Anker = 1\n", "Anker = 11\n")
    version = sets.load(corrected)
    # the module's __getattr__ answers now, with the version a game plays on
    assert "CARDS" not in namespace and namespace["DATA_VERSION"] == "the module's own"
    with sets.using(version):
        assert sets.attribute("CARDS")["Anker"] == 11
    assert sets.attribute("CARDS")["Anker"] == 1
    sets.install(namespace)  # with two versions about, it stays so
    assert "CARDS" not in namespace


def test_every_data_module_answers_its_values_as_globals_while_only_shipped():
    for game in GAMES:
        sets = game.data_sets
        if sets is None or len(sets.versions) > 1:
            continue  # another test of this process registered a corrected file
        module = importlib.import_module(f"{sets.package}.data")
        for name in sets._installed:
            assert vars(module)[name] is sets.shipped.derived[name], (game.name, name)
        assert sets._installed, game.name


def test_the_active_version_is_the_shipped_one_until_another_is_registered():
    from pbem.games.ziehen import data as ziehen_data

    sets = DataSets("pbem.games.ziehen", ziehen_data.Daten, ziehen_data._derive,
                    ziehen_data._constraints)
    assert sets.active is sets.shipped
    with sets.using(None):
        assert sets.active is sets.shipped
    sets.shipped.memo["seen"] = 1
    corrected = sets.shipped.text.replace('version = "1"', 'version = "2"').replace(
        "Anker = 1\n", "Anker = 11\n")
    version = sets.load(corrected)
    # from now on the version of the state being played, nested as ``using`` nests
    assert sets.active is sets.shipped
    with sets.using(version):
        assert sets.active is sets.versions[version]
        assert sets.active.memo == {}  # what the game keeps of a version is its own
        with sets.using(None):
            assert sets.active is sets.shipped and sets.active.memo == {"seen": 1}
        assert sets.active is sets.versions[version]
    assert sets.active is sets.shipped


def test_what_a_version_keeps_is_made_once_for_that_version():
    from pbem.games.ziehen import data as ziehen_data

    sets = DataSets("pbem.games.ziehen", ziehen_data.Daten, ziehen_data._derive,
                    ziehen_data._constraints)
    made: list[str] = []

    def make(word: str) -> str:
        made.append(word)
        return f"{word} of {sets.active.version}"

    shipped = sets.shipped
    assert shipped.kept(("word", "a"), make, "a") == f"a of {shipped.version}"
    assert shipped.kept(("word", "a"), make, "a") == f"a of {shipped.version}"
    assert shipped.kept(("word", "b"), make, "b") == f"b of {shipped.version}"
    assert made == ["a", "b"]  # once a key
    assert shipped.kept(("flag",), lambda: False) is False
    assert shipped.kept(("flag",), lambda: True) is False  # a falsy answer is kept too
    version = sets.load(shipped.text.replace('version = "1"', 'version = "2"'))
    with sets.using(version):
        assert sets.active.kept(("word", "a"), make, "a") == f"a of {version}"
    assert made == ["a", "b", "a"]  # each version its own


def test_a_games_methods_run_on_the_version_their_state_names_however_called():
    """``plays_on``'s wrappers, the quick way in (a state naming no version or the
    shipped one, while the shipped one is active) and the other: the call passed on as
    it came, keywords and defaults included, on the version the state names."""
    from pbem.games.datafile import plays_on
    from pbem.games.ziehen import data as ziehen_data

    sets = DataSets("pbem.games.ziehen", ziehen_data.Daten, ziehen_data._derive,
                    ziehen_data._constraints)

    @plays_on(sets)
    class Played:
        def menu(self, state, seat, lang="en"):
            return sets.active.version, seat, lang

        def view(self, state, seat):
            return {"seat": seat, "on": sets.active.version}

    game, shipped = Played(), sets.shipped.version
    assert game.menu({}, 1) == (shipped, 1, "en")
    assert game.menu({"data_version": shipped}, 2, lang="de") == (shipped, 2, "de")
    assert game.menu(state={}, seat=3, lang="de") == (shipped, 3, "de")
    assert Played.menu.__wrapped__(game, {}, 0) == (shipped, 0, "en")
    assert game.view({}, 0) == {"seat": 0, "on": shipped}  # no version named: none added
    corrected = sets.shipped.text.replace('version = "1"', 'version = "2"')
    version = sets.load(corrected)
    assert "+" in version
    assert game.menu({"data_version": version}, 1, "de") == (version, 1, "de")
    assert game.view({"data_version": version}, 0) == {"seat": 0, "on": version,
                                                       "data_version": version}
    with sets.using(version):  # a state of the shipped version, met inside another's
        assert game.menu({}, 1) == (shipped, 1, "en")
    with pytest.raises(DataFileError, match="no data version"):
        game.menu({"data_version": "2+0000"}, 1)  # an operator's file no longer here
