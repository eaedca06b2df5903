"""Taking back a human's cards in a game against computer players (the rule every front end applies).

A player practising against the computer may take back his last card of the deal in progress together with every
action the computer players took after it, and choose again; undo after undo goes further back, card by card,
across completed tricks too.  It never goes back past a moment at which the human was shown cards he had not
seen:

* his **exchange** (the draw from the talon shows him its cards; a *keep* is a blind exchange too, and the
  computer players may have exchanged after it), nor a card after which he drew from the stock (the
  ``seed002-literal`` variant);
* the **contract choice** (the rest of the hand is dealt after it);
* the **start of the deal**: a finished deal is scored (and recorded), so an earlier deal is never reopened, and
  once the match is over nothing is taken back.

The computer players' cards taken back go back into their hands; they are asked again when play comes round to
them.  Only games where every other seat is a computer player offer undo (the terminal games, and the server's
tables of one human and bots); when nothing can be taken back, :class:`UndoError` says why and nothing changes.

>>> from mizerka.match import Match
>>> match = Match(seed=5)
>>> take_back(match, 0)
Traceback (most recent call last):
...
mizerka.undo.UndoError: there is nothing of yours to take back in this deal: you have played no card in it yet
"""

from __future__ import annotations

from mizerka.deal import Action, Choose, Exchange, Play
from mizerka.match import Match
from mizerka.rules import ExchangeMode

__all__ = ["UndoError", "take_back", "undo_span"]


class UndoError(ValueError):
    """Undo is not possible; the message says why."""


def undo_span(match: Match, seat: int) -> int:
    """How many actions an undo by the human at *seat* takes back now: his last card of the deal in progress and
    every action after it (the other players' cards, a completed trick's included).

    Raises:
        UndoError: when there is no such card, or taking it back would go past cards the human has seen (his
            exchange, the contract choice, a card drawn from the stock, an earlier deal); the message says which.
    """
    if match.is_over():
        raise UndoError("the match is over: its last deal is finished and scored, and a finished deal cannot be "
                        "taken back")
    deal = match.deal
    pairs = list(zip(deal.actors, deal.history, strict=True))
    cards = [i for i, (actor, action) in enumerate(pairs) if actor == seat and isinstance(action, Play)]
    if cards:
        span = len(pairs) - cards[-1]
        if match.rules.exchange_mode is ExchangeMode.REPLENISH:  # cards drawn during play (seed002-literal)
            probe = deal.copy()  # did playing the card draw one from the stock?  Then the human has seen it
            for _ in range(span - 1):
                probe.pop()
            stock = len(probe.stock)
            probe.pop()
            if len(probe.stock) > stock:
                raise UndoError("you drew a card from the stock after your last card: it cannot be taken back")
        return span
    raise UndoError(_nothing_to_take_back(match, seat, [action for actor, action in pairs if actor == seat]))


def _nothing_to_take_back(match: Match, seat: int, own: list[Action]) -> str:
    """Why the human, who has played no card in the deal in progress, cannot undo: what stands in the way."""
    for action in own:
        if isinstance(action, Exchange):
            if action.discards:
                return ("you have played no card since your exchange, and the exchange cannot be taken back: you "
                        "have seen the cards you drew from the talon")
            if any(isinstance(a, Play) for a in match.deal.history):  # the others have led and followed
                return ("cards have been played since your exchange, none of them yours, and the exchange cannot be "
                        "taken back: undo takes back your cards, never your exchange")
            return ("you have played no card since your exchange, and the exchange cannot be taken back: undo "
                    "takes back cards, never your exchange")
    if any(isinstance(action, Choose) for action in own):
        return "the contract is chosen and the rest of your hand is dealt: it cannot be taken back"
    reason = ("you sit out this deal" if match.deal.role(seat) is None else "you have played no card in it yet")
    text = f"there is nothing of yours to take back in this deal: {reason}"
    if match.deal_no > 1:
        text += f" (deal {match.deal_no - 1} is finished and scored: undo never reopens an earlier deal)"
    return text


def take_back(match: Match, seat: int) -> list[tuple[int, Action]]:
    """Undo for the human at *seat* (see the module's doc): pop his last card of the deal in progress and every
    action after it with :meth:`Match.pop`; return the ``(seat, action)`` pairs taken back, in playing order.

    The human is then to move again, with the card back in his hand and the trick as it was before he played
    it.  The game loop asks the computer players again, as it always does, when it is their turn.

    Raises:
        UndoError: when nothing can be taken back (:func:`undo_span` says why); nothing changes then.
    """
    span = undo_span(match, seat)
    actors = match.deal.actors[-span:]
    taken = [match.pop() for _ in range(span)]
    return list(zip(actors, reversed(taken), strict=True))
