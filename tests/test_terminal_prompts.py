"""The line game's prompts (``mizerka play --plain``): what they read and what they say.

* The exchange: a bare ``discard`` (``exchange``, ``ex``) is incomplete and spends nothing (it was read as a keep,
  and the one blind exchange was gone), while every keep the docs name still keeps and records with keeps still read;
  a talon of one card is "1 card", an empty talon's keep is announced once.
* The contract: ``N`` and ``M`` choose no-trump and Mizerka, as the full-screen game's keys do; ``N`` where no-trump
  is not played is refused.
* An answer too long to quote is quoted in part, once (a megabyte in made four out).
* ``--seat``'s help does not make seat 0 the first dealer: the first dealer is drawn by lot from the seed.
"""

from __future__ import annotations

import warnings

import pytest
from click.testing import CliRunner

from mizerka.cards import CardSet
from mizerka.cli import cli
from mizerka.deal import KEEP, Action, Deal, Exchange, InvalidActionError, Observation, Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, read_text
from mizerka.rules import Contract, parse_variant
from mizerka.terminal import QuitGame, TerminalGame, counted, play_command
from tui_helpers import keep_all, scripted

warnings.simplefilter("ignore")  # variants whose scores are not zero-sum say so; not what these tests are about


def at_my_exchange() -> Match:
    """Deal 1 of a standard match: the human (seat 0) is forehand, has chosen no-trump, and is to exchange."""
    match = Match(parse_variant("standard,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
    match.play("NT")
    return match


# -- the exchange: a bare discard, the keeps, one card, an empty talon -----------------------------------------------


@pytest.mark.parametrize("word", ["discard", "exchange", "ex", "  Discard  ", "EXCHANGE"])
def test_a_bare_discard_is_incomplete_and_spends_nothing(word: str) -> None:
    """``discard`` (``exchange``, ``ex``) alone was read as a keep: the one blind exchange was gone."""
    match = at_my_exchange()
    game, out = scripted(match, 0, [word, "quit"])
    with pytest.raises(QuitGame):
        game.run()
    assert match.deal.phase is Phase.EXCHANGE and match.to_move == 0  # the exchange is still to make
    assert not [a for a in match.deal.history if isinstance(a, Exchange)]
    refusal = f"Not accepted: incomplete action {word.strip()!r}: name the cards to discard, or - to keep"
    assert refusal in out and "You keep your hand." not in out
    with pytest.raises(InvalidActionError, match="name the cards to discard, or - to keep"):
        match.deal.parse_action(word)


@pytest.mark.parametrize("text", ["-", "keep", "pass", "exchange -", "discard -", "ex -", "KEEP", " - "])
def test_the_keeps_still_keep(text: str) -> None:
    """What the docs call a keep (docs/deal.md, docs/protocol.md, the prompt's "-") is still one."""
    match = at_my_exchange()
    assert match.deal.parse_action(text) == KEEP
    match.play(text)
    assert match.deal.history[-1] == KEEP


def test_a_game_record_with_keeps_still_reads() -> None:
    """A record's keep (``0: -`` in ``[Exchange]``, and ``str(KEEP)``) is written and read as before."""
    match = Match(parse_variant("standard,contracts=NT,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
    while not match.is_over():
        match.play(keep_all(match.observation(match.to_move)))
    record = MatchRecord.from_actions(match.rules, match.players, match.first_dealer, match.decks,
                                      [list(deal.history) for deal in match.deals])
    text = record.to_text()
    assert "0: -" in text and str(KEEP) == "exchange -"
    again = read_text(text)
    assert again.to_text() == text
    deal = Deal(match.decks[0], dealer=2, rules=match.rules)
    deal.play("NT")
    assert deal.parse_action(str(KEEP)) == KEEP


def test_a_talon_of_one_card_is_one_card() -> None:
    """"the talon holds 1 cards"."""
    match = Match(parse_variant("standard,first_dealer=2"), players=["Ala", "You", "Bolek"], seed=3)
    match.play("NT")
    hand = sorted(match.observation(0).hand.cards())
    match.play(Exchange(CardSet(hand[:12])))  # forehand leaves one card in the talon
    game, out = scripted(match, 1, ["quit"])
    with pytest.raises(QuitGame):
        game.run()
    assert "Your one blind exchange: the talon holds 1 card." in out
    assert counted(1, "card") == "1 card" and counted(0, "card") == "0 cards" and counted(2, "trick") == "2 tricks"


def test_an_empty_talon_keep_is_announced_once() -> None:
    match = Match(parse_variant("standard,first_dealer=0"), players=["You", "Ala", "Bolek"], seed=1)

    def forehand(obs: Observation) -> Action:
        if obs.phase is Phase.EXCHANGE:
            return Exchange(obs.hand) if obs.talon_size else KEEP  # forehand takes the whole talon
        return obs.legal_actions[0]

    def read_answer(prompt: str) -> str:
        raise EOFError

    output: list[str] = []
    game = TerminalGame(match, 0, {1: forehand, 2: forehand}, read=read_answer, write=output.append)
    with pytest.raises(EOFError):
        game.run()
    assert "The talon is empty: you keep your hand." in output
    assert "You keep your hand." not in output


# -- the contract: N and M -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("answer", "contract"), [("N", Contract.NO_TRUMP), ("n", Contract.NO_TRUMP),
                                                  ("M", Contract.MIZERKA), ("NT", Contract.NO_TRUMP)])
def test_n_and_m_choose_at_the_contract_prompt(answer: str, contract: Contract) -> None:
    """The full-screen game's contract keys N and M: the line game took M and refused N."""
    match = Match(parse_variant("standard,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
    game, out = scripted(match, 0, [answer, "quit"])
    with pytest.raises(QuitGame):
        game.run()
    assert match.deal.contract is contract, out
    assert not [line for line in out if line.startswith("Not accepted")]


def test_n_where_no_trump_is_not_played_is_refused() -> None:
    match = Match(parse_variant("standard,contracts=H+MZ,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
    game, out = scripted(match, 0, ["N", "quit"])
    with pytest.raises(QuitGame):
        game.run()
    assert match.deal.contract is None
    assert [line for line in out if line.startswith("Not accepted")]


# -- answers too long to quote ---------------------------------------------------------------------------------------


def test_a_huge_answer_is_quoted_in_part() -> None:
    """A line of 100 000 characters piped to ``mizerka play --plain`` was echoed in full and then quoted three times
    in "Not accepted: invalid action 'x…': invalid card 'x…' in 'x…'" (a megabyte in made 4 MB out)."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1"], input="x" * 100_000 + "\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert len(result.output) < 5_000, len(result.output)
    assert "Not accepted: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100000 characters)" in result.output


def test_a_long_bad_answer_that_reaches_the_engine_is_quoted_once_in_part() -> None:
    """An answer of 60 characters is given to the engine, whose message quotes it; the line game cuts each quote to
    40 characters and "…"."""
    answer = "x" * 60
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1"], input=f"{answer}\nquit\n")
    refusal = next(line for line in result.output.splitlines() if line.startswith("Not accepted"))
    assert answer not in refusal and "'" + "x" * 40 + "'…" in refusal, refusal


# -- --seat's help ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line_game", [True, False])
def test_the_seat_help_does_not_make_seat_0_the_first_dealer(line_game: bool) -> None:
    """``--seat``: "your seat (0 = first to deal)"; but the first dealer is drawn by lot from the seed."""
    runner = CliRunner()
    result = runner.invoke(play_command, ["--help"]) if line_game else runner.invoke(cli, ["play", "--help"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "first to deal" not in flat
    assert "the first dealer is drawn by lot from the seed" in flat
    # and so it is: with --seed 7 Ala (seat 1) deals first, not seat 0
    game = runner.invoke(cli, ["play", "--plain", "--unicode", "--seed", "7"], input="quit\n")
    assert "═══ Deal 1 of 18 ═══  dealer: Ala" in game.output
