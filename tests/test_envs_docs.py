"""docs/envs.md followed word for word: its examples run as written and print what the page shows, and the calls,
signatures and strings it quotes are the real ones."""

from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")

import gymnasium  # noqa: E402
import pettingzoo  # noqa: E402

import mizerka.envs.openspiel  # noqa: E402, F401  (registers the game)
from mizerka.envs.gymnasium import MizerkaSoloEnv  # noqa: E402
from mizerka.envs.pettingzoo import mizerka_v0  # noqa: E402

PAGE = Path(__file__).resolve().parent.parent / "docs" / "envs.md"
TEXT = PAGE.read_text(encoding="utf-8")
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_every_python_block_is_an_example_that_prints_what_the_page_shows() -> None:
    """The IS-MCTS block used a ``state`` it never made ("on a state where a player is to move"): pasted as it
    was, it stopped with ``NameError``, and it showed no output to compare with."""
    blocks = [body for info, body in FENCE.findall(TEXT) if info.strip() == "python"]
    assert blocks
    for block in blocks:
        assert block.lstrip().startswith(">>> "), f"a python block that is no example to run:\n{block}"
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_openspiel_parameter_strings_are_as_the_page_quotes_them() -> None:
    game = pyspiel.load_game("mizerka", {"variant": "standard,show_trump_card"})
    assert "`str(game)` is `mizerka(dealer=0,variant=standard;show_trump_card)`" in TEXT
    assert str(game) == "mizerka(dealer=0,variant=standard;show_trump_card)"
    assert str(pyspiel.load_game("mizerka(variant=standard;show_trump_card)")) == str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    with pytest.raises(pyspiel.SpielError, match=re.escape("Unknown parameter 'show_trump_card)'")):
        pyspiel.load_game("mizerka(variant=standard,show_trump_card)")
    assert "`SpielError: Unknown parameter\n'show_trump_card)'`" in TEXT


def test_the_ids_the_page_names_make_the_environments() -> None:
    for env_id in ("MizerkaSolo-v0", "mizerka/MizerkaSolo-v0"):
        env = gymnasium.make(env_id, opponents="random")
        assert isinstance(env.unwrapped, MizerkaSoloEnv)
        env.close()
    env = pettingzoo.make("aec", "mizerka/mizerka-v0", max_cycles=5)
    assert env.unwrapped.max_cycles == 5
    assert game_name_of(pyspiel.load_game("mizerka")) == "mizerka"


def game_name_of(game: object) -> str:
    return str(game.get_type().short_name)  # type: ignore[attr-defined]


def _documented_defaults(call: str) -> dict[str, str]:
    """``name=default`` pairs of a documented signature such as ``f(a="x", b=None)``."""
    return dict(re.findall(r"(\w+)=([^,)]+)", call))


def test_the_documented_signatures_are_the_real_ones() -> None:
    gym_call = re.search(r"`MizerkaSoloEnv\((.*?)\)`", TEXT, re.DOTALL)
    pz_call = re.search(r"`mizerka_v0\.env\((.*?)\)`;", TEXT, re.DOTALL)
    assert gym_call and pz_call
    real = {name: repr(p.default).replace("'", '"') for name, p in inspect.signature(MizerkaSoloEnv).parameters.items()}
    assert _documented_defaults(gym_call.group(1)) == real
    pz_real = {
        name: repr(p.default).replace("'", '"')
        for name, p in inspect.signature(mizerka_v0.MizerkaEnv).parameters.items()
    }
    pz_real["illegal_reward"] = repr(inspect.signature(mizerka_v0.env).parameters["illegal_reward"].default)
    assert _documented_defaults(" ".join(pz_call.group(1).split())) == pz_real
