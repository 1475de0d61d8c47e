"""Every game's spec (``Game.spec``) agrees with its kernels and with what a search uses, and
no code above the games asks which game it is instead of reading a fact of the spec."""

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from tessera import Position
from tessera.errors import OptionError
from tessera.games import GAMES, game_with_id, get_game, registered_games
from tessera.kernels.constants import GAME_NAMES
from tessera.kernels.rng import make_rng
from tests.random_games import random_game

SOLVER = Path(__file__).resolve().parent.parent / "solver"
NAMES = [game.name for game in GAMES]


def test_the_registry_lists_every_game_once_by_name_and_id():
    assert list(registered_games()) == NAMES and len(set(NAMES)) == len(NAMES)
    for game in GAMES:
        assert get_game(game.name) is game and game_with_id(game.spec.id) is game


@pytest.mark.parametrize("name", NAMES)
def test_the_id_is_word_0_of_the_games_states_and_names_its_kernels(name):
    game = get_game(name)
    assert int(game.new(1)[0]) == game.spec.id
    assert GAME_NAMES[game.spec.id] == name
    assert Position.new(name, seed=1).game == name


@pytest.mark.parametrize("name", NAMES)
def test_new_takes_exactly_the_player_counts_of_the_spec(name):
    game = get_game(name)
    counts = game.spec.players
    assert counts.least <= counts.default <= counts.most
    assert int(game.kernels().players(game.new(1))) == counts.default
    if "players" not in game.options:
        assert counts.least == counts.most
        return
    assert game.options["players"].default == counts.default
    for players in range(counts.least, counts.most + 1):
        assert int(game.kernels().players(game.new(1, players=players))) == players
    for players in (counts.least - 1, counts.most + 1):
        with pytest.raises(OptionError):
            game.new(1, players=players)


@pytest.mark.parametrize("name", NAMES)
def test_the_option_defaults_are_what_new_uses(name):
    game = get_game(name)
    defaults = {option: spec.default for option, spec in game.options.items()}
    for seed in (1, 2):
        assert np.array_equal(game.new(seed, **defaults), game.new(seed))
    for option, spec in game.options.items():
        if isinstance(spec.kind, tuple):
            assert spec.default in spec.kind, option


@pytest.mark.parametrize("name", NAMES)
def test_max_moves_and_chance_outcomes_are_the_kernels(name):
    game = get_game(name)
    assert game.spec.max_moves == game.kernels().MAX_MOVES
    layout = __import__(f"tessera.kernels.{name}.layout", fromlist=["NCOLOURS"])
    assert game.spec.chance_outcomes == layout.NCOLOURS


@pytest.mark.parametrize("name", NAMES)
def test_hidden_information_is_views_that_differ_from_the_position(name):
    game = get_game(name)
    differs = False
    for seed in (1, 2):
        for state in itertools.islice(random_game(name, {}, seed), 40):
            players = int(game.kernels().players(state))
            differs |= any(not np.array_equal(game.view(state, p), state) for p in range(players))
    assert differs == game.spec.hidden


@pytest.mark.parametrize("name", NAMES)
def test_a_seeded_setup_is_dealt_from_the_seed_unless_its_option_names_it(name):
    game = get_game(name)
    setup = game.spec.seeded_setup
    if setup is None:
        assert np.array_equal(game.undealt(1), game.undealt(2))
        return
    assert game.options[setup.option].default is None
    assert not np.array_equal(game.undealt(1), game.undealt(2))
    named = {setup.option: "0"}
    assert np.array_equal(game.undealt(1, **named), game.undealt(2, **named))


@pytest.mark.parametrize("name", NAMES)
def test_a_default_search_reports_the_specs_search_defaults(name):
    """Without a model (a learned search's exploration: tests/test_search_defaults.py)."""
    report = Position.new(name, seed=1).best(visits=64, model="none")
    assert report["settings"]["exploration"] == get_game(name).spec.search.exploration
    assert report["settings"]["value"] == get_game(name).spec.search.value


@pytest.mark.parametrize("name", NAMES)
def test_a_resample_keeps_the_observers_view(name):
    game = get_game(name)
    state = game.new(3)
    for observer in range(int(game.kernels().players(state))):
        resampled = game.resample(state, observer, make_rng(5))
        assert np.array_equal(game.view(resampled, observer), game.view(state, observer))


# A comparison with a game's name: ``game == "azure"``, ``"azul" !== doc.game``,
# ``name in ("azul", "pavilion")``.
_NAMES = "|".join(map(re.escape, [*NAMES, *GAME_NAMES.values()]))
GAME_BRANCH = re.compile(rf"""(?:[!=]==?|\bin)\s*[\(\[]?\s*["'](?:{_NAMES})["']|["'](?:{_NAMES})["']\s*[!=]==?""")


def _is_the_games_own(path):
    """A module of one game: its ``Game``, notation or drawing."""
    parts = path.relative_to(SOLVER).parts
    own = {("games",), ("notation",), ("render",)}
    return parts[:1] in own and len(parts) > 1 and any(parts[1].startswith(name) for name in NAMES)


def game_branches():
    """``path:line: text`` of every comparison with a game's name outside the games' own modules."""
    found = []
    for path in sorted([*SOLVER.rglob("*.py"), *SOLVER.rglob("*.js")]):
        if _is_the_games_own(path):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if GAME_BRANCH.search(line):
                found.append(f"{path.relative_to(SOLVER.parent)}:{number}: {line.strip()}")
    return found


def test_the_pattern_finds_branches_on_a_games_name():
    for line in (
        'if game == "azure":',
        "x = doc.game !== 'azure' || y",
        'if name in ("azul", "pavilion"):',
        'if "toy" == name:',
    ):
        assert GAME_BRANCH.search(line), line
    for line in ('get_game("azure")', "BOARDS = {azul: AzulBoard}", 'name = "azul"'):
        assert not GAME_BRANCH.search(line), line


def test_no_code_above_the_games_branches_on_a_games_name():
    assert game_branches() == []
