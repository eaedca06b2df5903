"""A lean simulator for the search bots: card play on raw masks, no :class:`~mizerka.deal.Deal` objects.

A search bot plays thousands of deals to their end per decision.  Doing that through ``Deal.push``
(history, undo records, trick objects) and ``Deal.copy`` costs far more than the play itself, so the
playouts here work on a :class:`Table`: three hand masks indexed by *role* (0 forehand, 1 middlehand,
2 the third player; that is also the order of play), the trick so far, the leader and the tricks won.
Copying a table copies four short lists.

The playout policy (:func:`policy`) sees every hand, as a rollout policy in a sampled world may: cash
a card no one can beat, draw trumps with the master trump, lead low from length, win a trick as cheaply
as possible, ruff and over-ruff, otherwise duck; in Mizerka lead the card most likely to be beaten, duck
under the trick and throw away the highest card.  With ``epsilon`` it plays a random legal card that
often (ISMCTS uses this to keep exploring).

>>> from mizerka import Deal
>>> deal = Deal.random(4, dealer=0)
>>> for text in ("NT", "keep", "keep", "keep"):
...     _ = deal.play(text)
>>> table = Table.from_deal(deal)
>>> won = playout(table)
>>> sum(won), len(table.trick)
(13, 0)
>>> finished = deal.copy()
>>> while not finished.is_over():
...     finished.push_card(policy(Table.from_deal(finished)))
>>> [finished.tricks_won[seat] for seat in finished.active_seats] == won    # the same policy, the same tricks
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from mizerka.cards import SUIT_MASKS
from mizerka.deal import Deal, Phase
from mizerka.rules import Contract
from mizerka.tricks import trick_winner_index, winner_of_three, winning_card

__all__ = ["Table", "legal_mask", "playout", "policy", "random_rollout", "role_scores"]


class Table:
    """The play phase of one world on raw masks (see the module text).  ``trump`` is -1 in NT and Mizerka."""

    __slots__ = ("avoid", "hands", "leader", "left", "to_move", "trick", "trump", "won")

    def __init__(
        self, hands: list[int], trick: list[int], leader: int, to_move: int, won: list[int], left: int,
        trump: int, avoid: bool,
    ) -> None:
        self.hands = hands
        self.trick = trick
        self.leader = leader
        self.to_move = to_move
        self.won = won
        self.left = left  # tricks not yet complete (the current one included)
        self.trump = trump
        self.avoid = avoid

    @classmethod
    def from_deal(cls, deal: Deal) -> Table:
        """The table of *deal*, which must be in its play phase with no stock to draw from."""
        if deal.phase is not Phase.PLAY or deal.stock:
            raise ValueError("a Table needs a deal in its play phase without a stock")
        seats = deal.active_seats
        role = {seat: i for i, seat in enumerate(seats)}
        return cls(
            [deal.hands[s] for s in seats], list(deal.trick), role[deal.trick_leader], role[deal.to_move],
            [deal.tricks_won[s] for s in seats], deal.rules.n_tricks - len(deal.tricks),
            -1 if deal.trump is None else deal.trump, deal.contract is Contract.MIZERKA,
        )

    def copy(self) -> Table:
        return Table(self.hands[:], self.trick[:], self.leader, self.to_move, self.won[:], self.left, self.trump,
                     self.avoid)

    def play(self, card: int) -> None:
        """Play *card* (unchecked) for the player to move."""
        mover = self.to_move
        self.hands[mover] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) < 3:
            self.to_move = (mover + 1) % 3
            return
        winner = (self.leader + trick_winner_index(trick, self.trump)) % 3
        self.won[winner] += 1
        self.left -= 1
        self.trick = []
        self.leader = self.to_move = winner


_NEXT = (1, 2, 0)


def legal_mask(table: Table) -> int:
    """The cards the player to move may play."""
    hand = table.hands[table.to_move]
    if table.trick:
        follow = hand & SUIT_MASKS[table.trick[0] // 13]
        if follow:
            return follow
    return hand


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def policy(table: Table, rng: random.Random | None = None, epsilon: float = 0.0) -> int:
    """The playout policy's card for the player to move (it sees every hand)."""
    mask = legal_mask(table)
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    return _policy(table.hands, table.to_move, table.trick, table.trump, table.avoid, rng, epsilon, mask)


def _policy(
    hands: list[int], mover: int, trick: list[int], trump: int, avoid: bool, rng: random.Random | None,
    epsilon: float, mask: int,
) -> int:
    """:func:`policy` for a player with *mask* (at least two cards) to choose from."""
    hand = hands[mover]
    if epsilon and rng is not None and rng.random() < epsilon:
        cards = []
        while mask:
            low = mask & -mask
            cards.append(low.bit_length() - 1)
            mask ^= low
        return rng.choice(cards)
    nxt = hands[(mover + 1) % 3]
    prev = hands[(mover + 2) % 3]
    others = nxt | prev
    if not trick:
        if avoid:
            best, best_key = -1, 99
            for suit_mask in SUIT_MASKS:
                mine = hand & suit_mask
                if not mine:
                    continue
                card = _low(mine)
                theirs = others & suit_mask
                above = (theirs >> card).bit_count()
                key = 50 if not above else (theirs & ((1 << card) - 1)).bit_count() - above
                if key < best_key:
                    best, best_key = card, key
            return best
        if trump >= 0:
            mine = hand & SUIT_MASKS[trump]
            theirs = others & SUIT_MASKS[trump]
            if mine and theirs and mine.bit_length() > theirs.bit_length():
                return mine.bit_length() - 1
        for suit, suit_mask in enumerate(SUIT_MASKS):
            mine = hand & suit_mask
            if not mine or suit == trump:
                continue
            # a master card is safe unless a player void in the suit can ruff
            if mine.bit_length() > (others & suit_mask).bit_length():
                if trump < 0:
                    return mine.bit_length() - 1
                trumps = SUIT_MASKS[trump]
                if not ((nxt & trumps and not nxt & suit_mask) or (prev & trumps and not prev & suit_mask)):
                    return mine.bit_length() - 1
        longest, length = -1, -1
        for suit, suit_mask in enumerate(SUIT_MASKS):
            n = (hand & suit_mask).bit_count()
            if n > length and (suit != trump or hand & ~suit_mask == 0):
                longest, length = suit, n
        return _low(hand & SUIT_MASKS[longest])
    led = trick[0] // 13
    best = winning_card(trick, trump)
    last = len(trick) == 2
    follow = hand & SUIT_MASKS[led]
    if avoid:
        if follow:
            under = follow & ((1 << best) - 1)
            if under:
                return under.bit_length() - 1
            return follow.bit_length() - 1 if last else _low(follow)
        top, top_rank, top_short = -1, -1, 0
        m = mask
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            rank, short = card % 13, -(hand & SUIT_MASKS[card // 13]).bit_count()
            if rank > top_rank or (rank == top_rank and short > top_short):
                top, top_rank, top_short = card, rank, short
        return top
    if follow:
        if best // 13 != led:
            return _low(follow)
        winners = follow & ~((2 << best) - 1)
        if not winners:
            return _low(follow)
        if last:
            return _low(winners)
        their = nxt & SUIT_MASKS[led]
        if their:
            return winners.bit_length() - 1 if winners.bit_length() > their.bit_length() else _low(follow)
        if trump >= 0 and nxt & SUIT_MASKS[trump]:
            return _low(follow)
        return _low(winners)
    if trump >= 0:
        trumps = mask & SUIT_MASKS[trump]
        if trumps:
            over = trumps & ~((2 << best) - 1) if best // 13 == trump else trumps
            if over:
                if last or best // 13 == trump:
                    return _low(over)
                # ruff with the lowest trump the next player cannot over-ruff (when he is void too)
                their_trumps = nxt & SUIT_MASKS[trump] if not nxt & SUIT_MASKS[led] else 0
                safe = over & ~((1 << their_trumps.bit_length()) - 1) if their_trumps else over
                return _low(safe or over)
        side = mask & ~SUIT_MASKS[trump]
        if side:
            mask = side
    low_card, low_rank, low_length = -1, 99, 99
    m = mask
    while m:
        low = m & -m
        card = low.bit_length() - 1
        m ^= low
        rank, length = card % 13, (hand & SUIT_MASKS[card // 13]).bit_count()
        if rank < low_rank or (rank == low_rank and length < low_length):
            low_card, low_rank, low_length = card, rank, length
    return low_card


def playout(table: Table, rng: random.Random | None = None, epsilon: float = 0.0) -> list[int]:
    """Play *table* to the end with :func:`policy`, in place; return the tricks won per role.

    ``epsilon=1`` with an *rng* plays uniformly random legal cards instead (cheaper, weaker).
    """
    # Table.play inlined on local variables: this loop is the inner loop of every search level
    hands, trick, trump, avoid, won = table.hands, table.trick, table.trump, table.avoid, table.won
    mover, leader, left = table.to_move, table.leader, table.left
    choose = _policy
    uniform = epsilon >= 1.0 and rng is not None
    while left:
        mask = hands[mover]
        if trick:
            follow = mask & SUIT_MASKS[trick[0] // 13]
            if follow:
                mask = follow
        if mask & (mask - 1) == 0:
            card = mask.bit_length() - 1
        elif uniform:  # a random legal card (the random rollouts of textbook IS-MCTS)
            for _ in range(rng.randrange(mask.bit_count())):  # type: ignore[union-attr]
                mask &= mask - 1
            card = (mask & -mask).bit_length() - 1
        else:
            card = choose(hands, mover, trick, trump, avoid, rng, epsilon, mask)
        hands[mover] ^= 1 << card
        trick.append(card)
        if len(trick) < 3:
            mover = _NEXT[mover]
            continue
        leader = mover = (leader + winner_of_three(trick[0], trick[1], trick[2], trump)) % 3
        won[leader] += 1
        left -= 1
        trick = []
    table.trick, table.to_move, table.leader, table.left = trick, mover, leader, left
    return won


def random_rollout(
    hands: list[int], trick: list[int], leader: int, mover: int, won: list[int], left: int, trump: int,
    random_float: Callable[[], float],
) -> list[int]:
    """Play to the end with uniformly random legal cards, in place on *hands*, *trick* and *won*; return *won*.

    The random rollouts of textbook IS-MCTS (OpenSpiel's ``RandomRolloutEvaluator``), on raw masks:
    *random_float* is an RNG's ``random`` method.
    """
    suit_masks = SUIT_MASKS
    nxt = _NEXT
    while left:
        mask = hands[mover]
        if trick:
            follow = mask & suit_masks[trick[0] // 13]
            if follow:
                mask = follow
        if mask & (mask - 1):
            for _ in range(int(random_float() * mask.bit_count())):
                mask &= mask - 1
            low = mask & -mask
        else:
            low = mask
        hands[mover] ^= low
        trick.append(low.bit_length() - 1)
        if len(trick) < 3:
            mover = nxt[mover]
            continue
        leader = mover = (leader + winner_of_three(trick[0], trick[1], trick[2], trump)) % 3
        won[leader] += 1
        left -= 1
        trick = []
    return won


def role_scores(won: list[int], quotas: tuple[int, int, int], avoid: bool) -> list[int]:
    """Each role's score from its tricks: tricks − quota, or quota − tricks in Mizerka."""
    if avoid:
        return [quotas[0] - won[0], quotas[1] - won[1], quotas[2] - won[2]]
    return [won[0] - quotas[0], won[1] - quotas[1], won[2] - quotas[2]]
