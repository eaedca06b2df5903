"""The table behind the full-screen game: one human seat, computer players at the others, undo and hints.

:class:`TableModel` knows nothing about the screen.  The app asks it what the human may see
(:meth:`TableModel.observation`, built from ``Match.observation(seat)`` only), lets the computer players move one
action at a time (:meth:`TableModel.step_bot`), applies the human's actions with full checking
(:meth:`TableModel.act`), and takes actions back (:meth:`TableModel.undo`) within the limits below.

Undo, against bots only, follows :mod:`mizerka.undo` (the rule the server's tables of one human and bots
follow too): the human's cards of the deal in progress, never his exchange, the contract choice or an earlier deal.

>>> from mizerka.match import Match
>>> from mizerka.rules import parse_variant
>>> model = TableModel(Match(parse_variant("standard,first_dealer=2"), players=["You", "Ala", "Bolek"], seed=1),
...                    seat=0, levels=["random", "random"], seed=1)
>>> model.is_human_turn(), model.observation().phase.name   # the human is forehand: he chooses
(True, 'CHOOSE')
>>> model.undo()
Traceback (most recent call last):
...
mizerka.undo.UndoError: there is nothing of yours to take back in this deal: you have played no card in it yet
"""

from __future__ import annotations

from collections.abc import Sequence

from mizerka.bots import BOT_LEVELS, SEARCH_LEVELS, Bot, make_bot, warm_up_in_background
from mizerka.deal import Action, Observation, Phase
from mizerka.match import Match
from mizerka.undo import UndoError, take_back, undo_span

__all__ = ["HINT_LEVELS", "TableModel", "UndoError", "take_back", "undo_span"]  # the last three: mizerka.undo

HINT_LEVELS = ("expert", "ismcts", "pimc", "rules")
"""The bot that gives hints: the first of these levels that exists."""


class TableModel:
    """A match with a human at *seat* and a bot of the given level at every other seat.

    Args:
        match: the match, at its start or anywhere in it.
        seat: the human's seat.
        levels: bot levels for the other seats, in seat order.
        seed: seeds the bots (and the hint bot).

    Raises:
        ValueError: for a bad seat, a wrong number of levels or an unknown level.
    """

    def __init__(self, match: Match, seat: int, levels: Sequence[str], seed: int = 0) -> None:
        n = match.rules.n_seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at a {n}-player table")
        others = [s for s in range(n) if s != seat]
        if len(levels) != len(others):
            raise ValueError(f"give {len(others)} bot levels, not {len(levels)}")
        self.match = match
        self.seat = seat
        self.levels = {s: level for s, level in zip(others, levels, strict=True)}
        self.bots: dict[int, Bot] = {
            s: make_bot(level, seed=seed * 10 + i + 1) for i, (s, level) in enumerate(self.levels.items())
        }
        hint_level = next(level for level in HINT_LEVELS if level in BOT_LEVELS)
        self.hint_bot = make_bot(hint_level, seed=seed * 10 + 9)
        self.hint_level = hint_level
        if SEARCH_LEVELS & {hint_level, *levels}:
            warm_up_in_background(match.rules)

    # -- what the human sees -----------------------------------------------------------------------------

    def observation(self) -> Observation:
        """The human's view of the current deal (nothing else reaches the screen)."""
        return self.match.observation(self.seat)

    def is_over(self) -> bool:
        return self.match.is_over()

    def is_human_turn(self) -> bool:
        return not self.match.is_over() and self.match.to_move == self.seat

    # -- moves -------------------------------------------------------------------------------------------

    def step_bot(self) -> tuple[int, Action]:
        """Let the computer player to move make one action; return its seat and action.

        Raises:
            RuntimeError: if it is the human's turn or the match is over, or a bot breaks the rules.
        """
        if self.match.is_over() or self.match.to_move == self.seat:
            raise RuntimeError("no computer player is to move")
        seat = self.match.to_move
        action = self.bots[seat].decide(self.match.observation(seat)).action
        try:
            self.match.play(action)
        except ValueError as error:
            raise RuntimeError(f"computer player at seat {seat} broke the rules: {error}") from None
        return seat, action

    def act(self, action: Action | str) -> Action:
        """Apply the human's action, checked.

        Raises:
            ValueError: (the engine's ``IllegalActionError``/``InvalidActionError``) for an action that is not
                legal now, or when it is not the human's turn.
        """
        if not self.is_human_turn():
            raise ValueError("it is not your turn")
        return self.match.play(action)

    def deal_no_of_last_action(self) -> int:
        return self.match.deal_no if self.match.deal.history else self.match.deal_no - 1

    # -- undo --------------------------------------------------------------------------------------------

    def undo_span(self) -> int:
        """How many actions :meth:`undo` would take back (see :func:`undo_span`).

        Raises:
            UndoError: if undo is not possible now, saying why.
        """
        return undo_span(self.match, self.seat)

    def can_undo(self) -> bool:
        try:
            self.undo_span()
        except UndoError:
            return False
        return True

    def undo(self) -> list[tuple[int, Action]]:
        """Take back the human's last card and what the computer players did after it (:func:`take_back`);
        return the ``(seat, action)`` pairs taken back, in the order they were played.

        Raises:
            UndoError: if there is no card of the human's to take back in this deal (see the module's doc).
        """
        return take_back(self.match, self.seat)

    # -- hints -------------------------------------------------------------------------------------------

    def hint(self, observation: Observation | None = None) -> tuple[Action, dict[str, float]]:
        """What the hint bot would do in the human's place, from the human's observation only, with its
        evaluations of the candidates (expected score; may be empty).

        *observation* is the human's observation to advise on (default: the current one).  Given, it is all
        the bot reads, so the hint can be worked out in another thread while the match goes on.

        Raises:
            RuntimeError: if it is not the human's turn (in *observation*).
        """
        if observation is None:
            if not self.is_human_turn():
                raise RuntimeError("it is not your turn")
            observation = self.observation()
        elif observation.seat != self.seat or observation.to_move != self.seat or observation.phase is Phase.DONE:
            raise RuntimeError("it is not your turn")
        decision = self.hint_bot.decide(observation)
        raw = decision.info.get("evaluations", {})
        evaluations = {str(k): float(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
        return decision.action, evaluations
