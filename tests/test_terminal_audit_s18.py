"""Defects an audit of the line game (``mizerka play --plain``) found (session 18): a bare ``discard`` spent the
exchange as a keep, ``--seat``'s help named seat 0 the first dealer, "1 cards", ``--ascii`` output that was not
ASCII, ``N`` refused at the contract prompt, and a four-player review that judged the seat that sat out."""

from __future__ import annotations

import random
import warnings

import pytest
from click.testing import CliRunner

from mizerka.cards import CardSet
from mizerka.cli import cli
from mizerka.deal import KEEP, Deal, Exchange, InvalidActionError, Observation, Phase
from mizerka.match import Match
from mizerka.record import MatchRecord, read_text
from mizerka.rules import Contract, parse_variant
from mizerka.terminal import QuitGame, TerminalGame, ascii_text, counted, play_command

warnings.simplefilter("ignore")  # variants whose scores are not zero-sum say so; not what these tests are about


def keep_all(obs: Observation) -> Exchange:
    """A computer player that keeps its hand (and chooses, or plays, its first legal action)."""
    if obs.phase is Phase.EXCHANGE:
        return KEEP
    return obs.legal_actions[0]  # type: ignore[return-value]


def scripted(match: Match, seat: int, answers: list[str], *, unicode: bool = True) -> tuple[TerminalGame, list[str]]:
    out: list[str] = []
    others = {s: keep_all for s in range(match.rules.n_seats) if s != seat}
    game = TerminalGame(match, seat, others, read=lambda prompt: answers.pop(0), write=out.append, unicode=unicode)
    return game, out


def at_my_exchange() -> Match:
    """Deal 1 of a standard match: the human (seat 0) is forehand, has chosen no-trump, and is to exchange."""
    match = Match(parse_variant("standard,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=3)
    match.play("NT")
    return match


# -- a bare discard ----------------------------------------------------------------------------------------------


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


# -- --seat's help ---------------------------------------------------------------------------------------------


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


# -- one card ---------------------------------------------------------------------------------------------------


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


# -- --ascii -----------------------------------------------------------------------------------------------------


def test_ascii_output_is_ascii_only() -> None:
    """With ``--ascii`` the deal's header was framed with ``═══``, lists were joined with ``·``, tricks and scores
    pointed with ``→``, and the help and the engine's refusals showed ``♥``."""
    match = Match(parse_variant("four-players,contracts=NT+MZ,first_dealer=3"),
                  players=["You", "Ala", "Bolek", "Cezary"], seed=11)
    rng = random.Random(1)
    extra = ["?", "hand", "sheet", "last", "review", "review 9", "undo", "QQ", "ZZ", "2C 2C", "AS"]
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        obs = match.observation(0)
        if rng.random() < 0.25:
            return rng.choice(extra)
        if obs.phase is Phase.EXCHANGE:
            return " ".join(str(c) for c in list(obs.hand)[: rng.randrange(0, min(3, obs.talon_size) + 1)]) or "-"
        return str(rng.choice(list(obs.legal_actions)))

    others = {s: keep_all for s in (1, 2, 3)}
    game = TerminalGame(match, 0, others, read=read, write=out.append, unicode=False)
    game.run()
    text = "\n".join(out)
    for needed in ("=== Deal 1 of ", "Totals: ", "Tricks: ", " -> ", "Not accepted: ", "Commands at any prompt",
                   "Last trick: ", "Summary", "The match is over."):
        assert needed in text, needed
    assert [line for line in text.splitlines() if not line.isascii()] == []


def test_ascii_text() -> None:
    assert ascii_text("═══ Deal 2 of 6 ═══  dealer: you · FH Ala") == "=== Deal 2 of 6 ===  dealer: you, FH Ala"
    assert ascii_text("Ala 5 of 5 → 0; Bolek 3♥ ✗ …") == "Ala 5 of 5 -> 0; Bolek 3H x ..."
    assert ascii_text("Łucja") == "Łucja"  # a name keeps its letters


def test_the_command_line_with_ascii_writes_ascii_only() -> None:
    """The whole command: its opening lines, the deal, the help, a refusal, and the lines after ``quit``."""
    result = CliRunner().invoke(cli, ["play", "--plain", "--ascii", "--seed", "3", "--variant",
                                      "standard,first_dealer=2", "--opponents", "random"],
                                input="?\nQQ\nNT\n2C 2C\n-\nlast\nquit\n")
    assert result.exit_code == 0, result.output
    assert "=== Deal 1 of 18 ===  dealer: Bolek, FH you, MH Ala, D Bolek" in result.output
    assert "Totals: You 0, Ala 0, Bolek 0" in result.output
    assert result.output.isascii(), [line for line in result.output.splitlines() if not line.isascii()]


# -- N for no-trump -------------------------------------------------------------------------------------------


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


# -- review with four at the table --------------------------------------------------------------------------------


def test_the_review_of_a_four_player_deal_says_the_dealer_sat_out() -> None:
    """``review``'s summary gave the dealer, who sat the deal out, "0 cards with a choice, 0 errors"."""
    match = Match(parse_variant("four-players,contracts=NT,first_dealer=3"),
                  players=["You", "Ala", "Bolek", "Cezary"], seed=5)
    while match.deal_no == 1:
        match.play(match.deal.forced_action() or next(iter(match.legal_actions)))
    game, _ = scripted(match, 0, [])
    text = game.review("1")
    summary = text.split("\nSummary\n", 1)[1].splitlines()
    assert summary[3].split() == ["Cezary", "sat", "out", "(the", "dealer)"]
    assert all("with a choice" in line for line in summary[:3])
    assert "Cezary" not in " ".join(line for line in text.splitlines() if line.startswith("  trick"))
