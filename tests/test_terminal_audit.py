"""``mizerka play --plain`` as a demanding player meets it: what an audit found, one test each.

* A lone ``Q`` left the match at once (``q`` was a short ``quit``): a player typing the queen's rank and forgetting
  its suit lost the match.  It is refused now as the other ranks are.
* The local line game gave no hints (``hint`` was "invalid card"), though the full-screen game and the line game
  at a server's table do.  It now asks the expert bot, from the player's view only.
* At a terminal the arrow keys wrote escape codes into the answer: :mod:`readline` was never imported.  With it
  the prompt's colour codes are marked as taking no columns.
* A byte-order mark before the first answer (a file of answers saved by Windows Notepad) spoiled that answer.
* Ctrl-C while the computer players were being made gave click's "Aborted!" and exit 1, not the match's
  "Interrupted" and 130.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from click.testing import CliRunner

from mizerka import terminal
from mizerka.bots import make_bot
from mizerka.cli import cli
from mizerka.match import Match
from mizerka.rules import STANDARD
from mizerka.terminal import QuitGame, TerminalGame, make_opponents


def _game(answers: list[str], *, hint: bool = True) -> tuple[TerminalGame, list[str]]:
    match = Match(STANDARD, players=["You", "Ala", "Bolek"], seed=3, first_dealer=2)  # seat 0 is forehand
    script = iter(answers)
    output: list[str] = []
    game = TerminalGame(match, 0, make_opponents(["random", "random"], [1, 2], 3), read=lambda prompt: next(script),
                        write=output.append, hint=make_bot("rules", seed=9).decide if hint else None)
    return game, output


def test_a_lone_queen_is_no_quit() -> None:
    game, output = _game(["Q", "q", "quit"])
    with pytest.raises(QuitGame):
        game.run()
    refusals = [line for line in output if line.startswith("Not accepted")]
    assert len(refusals) == 2 and all("invalid" in line for line in refusals), output
    assert not game.match.deal.history  # nothing was played, and the match went on until "quit"


def test_a_hint_names_the_bots_action_from_the_players_view() -> None:
    game, output = _game(["hint", "quit"])
    with pytest.raises(QuitGame):
        game.run()
    advised = make_bot("rules", seed=9).decide(game.match.observation(0))
    line = next(line for line in output if line.startswith("Hint ("))
    assert line.startswith(f"Hint (expert bot, from your view only): {advised.action}"), line
    assert not game.match.deal.history


def test_a_game_without_a_hint_bot_says_so() -> None:
    game, output = _game(["hint", "quit"], hint=False)
    with pytest.raises(QuitGame):
        game.run()
    assert "This game gives no hints." in output


def test_the_command_line_game_gives_hints_and_lists_them_in_its_help() -> None:
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--opponents", "random"],
                                input="?\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "  hint    what the expert bot would do in your place" in result.output
    assert "Hint (expert bot, from your view only): " in result.output


def test_a_byte_order_mark_before_an_answer_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeffhelp\r\n"))
    assert terminal._read_line("Your card: ") == "help"


def test_at_a_terminal_the_prompt_s_colours_take_no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("readline", reason="readline is not on this platform (Windows): no line editing there")
    asked: list[str] = []

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    def fake_input(prompt: str) -> str:
        asked.append(prompt)
        return "\ufeff8s"

    monkeypatch.setattr("sys.stdin", Tty(""))
    monkeypatch.setattr("builtins.input", fake_input)
    assert terminal._read_line("Your card [\x1b[31m8♥\x1b[0m 9♠]: ") == "8s"
    assert asked == ["Your card [\x01\x1b[31m\x028♥\x01\x1b[0m\x02 9♠]: "]


def test_ctrl_c_before_the_match_begins_is_an_interruption(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(terminal, "make_opponents", interrupted)
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1"], input="quit\n")
    assert result.exit_code == 130, result.output
    assert "Interrupted before the match began." in result.output and "Aborted" not in result.output
