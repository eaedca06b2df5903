"""The pure-Python reference solver: the same algorithm as the C kernel, written to be read.

The search is a two-sided game whatever the number of hands.  Two player masks define it:

* ``count_mask``: the players whose tricks are counted (the value);
* ``max_mask``: the players who try to make the value large; everybody else makes it small.

A trump or no-trump contract solved for ``seat`` is ``count = max = seat's side``; Mizerka solved for
``seat`` (paranoid: the two others as a coalition) is ``count = {seat}`` and ``max`` = the others,
who try to load tricks onto ``seat`` while ``seat`` ducks.  A bridge deal is ``count = max = N/S``.

Techniques (the C kernel in ``_kernel.c`` implements the same ones, and its comments say how):

1. **Zero-window search, DDS style.**  :meth:`ReferenceSolver._reach` answers the boolean question
   "can the max side make at least ``target`` tricks?".  The driver (:meth:`ReferenceSolver.value`)
   narrows ``lower <= value <= upper`` by binary search on the target; each probe is a null-window
   alpha-beta where the max side needs one move returning ``True`` and the min side one returning
   ``False``.
2. **Target too low / too high.**  At a trick boundary a probe stops if the tricks already won reach
   the target, or cannot reach it with every trick left.
3. **Transposition table at trick boundaries with bounds.**  Only positions between tricks are stored,
   keyed by *relative-rank normalised* holdings (each suit's remaining cards renumbered from the top,
   so positions that differ only in cards already played share an entry) and the leader.  An entry
   holds a lower and an upper bound on the tricks still to come; a probe result tightens one of them.
4. **Equivalent cards.**  Only the highest card of each sequence is tried: two cards of a hand are
   equivalent when no card still in play (in another hand or on the table) lies between them, so
   cards made equivalent by the cards already played merge too.
5. **Quick tricks and later tricks** (trump and no-trump goals only).  At a trick boundary the leader
   counts the tricks his side can cash at once (cards above every other hand's cards in the suit; side
   suits in a trump contract only once the leader's master trumps have drawn every other hand's
   trumps).  If those give the max side its target, or deny it, the probe stops.  Later tricks: in a
   trump contract, whoever holds the top trump is sure of one trick.
6. **Move ordering with killer moves.**  Cards that win the trick cheaply come first for the side that
   wants tricks, safe ducks first for a side that does not; the card that last caused a cut-off at the
   same depth (the killer) is tried before all others.

>>> from mizerka.solver.position import Position
>>> p = Position.from_text("NT; lead 0; S:AK H:- D:- C:2 / S:Q2 H:- D:- C:3 / S:- H:- D:A2 C:4")
>>> ReferenceSolver(p, count_mask=0b001, max_mask=0b001).value()
2
"""

from __future__ import annotations

from mizerka.cards import SUIT_MASKS, mask_indices
from mizerka.solver.position import Position
from mizerka.tricks import legal_plays, trick_winner_index

__all__ = ["ReferenceSolver", "brute_force_value", "equivalent_tops", "normalized_key"]


def _legal(hand: int, trick: list[int], trump: int | None, must_trump: bool) -> int:
    """The cards of *hand* that may go to *trick*: the engine's one follow rule (:func:`mizerka.tricks.legal_plays`)."""
    return legal_plays(hand, trick[0] // 13 if trick else None, trump, must_trump=must_trump)


def equivalent_tops(legal: int, in_play: int) -> int:
    """The highest card of each run of *legal* cards with no card of *in_play* between them.

    *in_play* holds every card not yet gone: all hands and the cards on the table.

    >>> from mizerka.cards import CardSet
    >>> hand = CardSet.from_str("AS QS 9S").mask
    >>> print(CardSet(equivalent_tops(hand, hand | CardSet.from_str("TS").mask)))  # K, J gone: A=Q
    AS 9S
    """
    tops = 0
    rest = legal
    while rest:
        low = rest & -rest
        rest ^= low
        above = in_play & ~((low << 1) - 1)
        nxt = above & -above
        # the next card still in play above this one is ours and of the same suit -> not a top
        if not (nxt & legal and (nxt.bit_length() - 1) // 13 == (low.bit_length() - 1) // 13):
            tops |= low
    return tops


def normalized_key(hands: tuple[int, ...] | list[int], leader: int) -> tuple[int, ...]:
    """Trick-boundary key: each suit's remaining cards renumbered from the ace down.

    Two positions that differ only in which low cards are already gone share a key:

    >>> from mizerka.cards import CardSet
    >>> a = [CardSet.from_str("AS 5S").mask, CardSet.from_str("KS 2S").mask]
    >>> b = [CardSet.from_str("KS 9S").mask, CardSet.from_str("QS 3S").mask]
    >>> normalized_key(a, 0) == normalized_key(b, 0)
    True
    """
    out = [0] * len(hands)
    for suit in range(4):
        shift = 13 * suit
        remaining = 0
        for hand in hands:
            remaining |= (hand >> shift) & 0x1FFF
        rank = 12
        bit = 12
        while bit >= 0:
            if remaining >> bit & 1:
                for p, hand in enumerate(hands):
                    if hand >> (shift + bit) & 1:
                        out[p] |= 1 << (shift + rank)
                        break
                rank -= 1
            bit -= 1
    return (*out, leader)


class ReferenceSolver:
    """Exact two-sided search over one position.  See the module docstring for the techniques.

    Args:
        position: the position to solve (its ``sides`` and ``misere`` are ignored: the masks rule).
        count_mask: players whose tricks make the value.
        max_mask: players maximising the value; the others minimise it.
    """

    def __init__(self, position: Position, count_mask: int, max_mask: int) -> None:
        self.hands = list(position.hands)
        self.n = len(self.hands)
        self.leader = position.leader
        self.trick = list(position.trick)
        self.trump = position.trump
        self.must_trump = position.must_trump
        self.count_mask = count_mask
        self.max_mask = max_mask
        # a side "wants" tricks when winning them raises its own goal (never so in Mizerka)
        self.wants_tricks = count_mask == max_mask
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.killers: dict[int, int] = {}
        self.nodes = 0

    # -- the driver -------------------------------------------------------------------------------

    def tricks_left(self) -> int:
        return self.hands[(self.leader + len(self.trick)) % self.n].bit_count()

    def value(self, lower: int = 0, upper: int | None = None) -> int:
        """The counted tricks from here to the end, with both sides playing perfectly."""
        if upper is None:
            upper = self.tricks_left()
        while lower < upper:
            target = (lower + upper + 1) // 2
            if self._reach(0, target):
                lower = target
            else:
                upper = target - 1
        return lower

    def move_values(self) -> dict[int, int]:
        """The value after each legal card of the player to move (equivalent cards share one search)."""
        player = (self.leader + len(self.trick)) % self.n
        legal = _legal(self.hands[player], self.trick, self.trump, self.must_trump)
        in_play = self._in_play()
        result: dict[int, int] = {}
        tops = equivalent_tops(legal, in_play)
        for card in mask_indices(tops):
            gained, undo = self._play(card)
            result[card] = gained + self.value(0, self.tricks_left())
            self._unplay(undo)
        # each non-top card takes the value of the next top above it in the same suit
        for card in mask_indices(legal & ~tops):
            above = card + 1
            while above not in result:
                above += 1
            result[card] = result[above]
        return dict(sorted(result.items()))

    # -- the search -------------------------------------------------------------------------------

    def _in_play(self) -> int:
        mask = 0
        for hand in self.hands:
            mask |= hand
        for card in self.trick:
            mask |= 1 << card
        return mask

    def _play(self, card: int) -> tuple[int, tuple[int, int, list[int]]]:
        """Play *card* for the player to move; return (counted tricks gained, undo record)."""
        player = (self.leader + len(self.trick)) % self.n
        undo = (card, self.leader, list(self.trick))
        self.hands[player] &= ~(1 << card)
        self.trick.append(card)
        gained = 0
        if len(self.trick) == self.n:
            winner = (self.leader + trick_winner_index(self.trick, self.trump)) % self.n
            gained = self.count_mask >> winner & 1
            self.leader = winner
            self.trick = []
        return gained, undo

    def _unplay(self, undo: tuple[int, int, list[int]]) -> None:
        card, leader, trick = undo
        self.leader = leader
        self.trick = trick
        player = (leader + len(trick)) % self.n
        self.hands[player] |= 1 << card

    def _reach(self, won: int, target: int) -> bool:
        """Can the max side end with at least *target* counted tricks, having *won* so far?"""
        self.nodes += 1
        if self.trick:
            return self._search_moves(won, target)
        left = self.hands[self.leader].bit_count()
        if won >= target:
            return True
        if won + left < target:
            return False
        key = normalized_key(self.hands, self.leader)
        lower, upper = self.table.get(key, (0, left))
        if won + lower >= target:
            return True
        if won + upper < target:
            return False
        if self.wants_tricks:
            lower, upper = self._sure_trick_bounds(left, lower, upper)
            if won + lower >= target:
                return True
            if won + upper < target:
                return False
        result = self._search_moves(won, target)
        old_lower, old_upper = self.table.get(key, (0, left))
        if result:
            self.table[key] = (max(old_lower, target - won), old_upper)
        else:
            self.table[key] = (old_lower, min(old_upper, target - won - 1))
        return result

    def _search_moves(self, won: int, target: int) -> bool:
        player = (self.leader + len(self.trick)) % self.n
        maximising = bool(self.max_mask >> player & 1)
        depth = 52 - self._in_play().bit_count() + len(self.trick)
        for card in self._ordered_moves(player, depth):
            gained, undo = self._play(card)
            result = self._reach(won + gained, target)
            self._unplay(undo)
            if result == maximising:
                self.killers[depth] = card
                return result
        return not maximising

    # -- bounds and ordering ----------------------------------------------------------------------

    def _sure_trick_bounds(self, left: int, lower: int, upper: int) -> tuple[int, int]:
        """Tighten (lower, upper) with the leader's quick tricks and the top trump's later trick."""
        leader = self.leader
        hand = self.hands[leader]
        others = [h for p, h in enumerate(self.hands) if p != leader]
        quick = 0
        trump = self.trump
        trumps_drawn = True
        if trump is not None:
            mask = SUIT_MASKS[trump]
            top_trumps = _cards_above_all(hand & mask, [h & mask for h in others])
            quick += top_trumps
            longest = max((h & mask).bit_count() for h in others)
            trumps_drawn = top_trumps >= longest
        if trumps_drawn:
            for suit in range(4):
                if suit != trump:
                    mask = SUIT_MASKS[suit]
                    quick += _cards_above_all(hand & mask, [h & mask for h in others])
        quick = min(quick, left)
        leader_counted = bool(self.count_mask >> leader & 1)
        if leader_counted:
            lower = max(lower, quick)
        else:
            upper = min(upper, left - quick)
        if trump is not None:
            mask = SUIT_MASKS[trump]
            top = 0
            for hand_ in self.hands:
                top |= hand_ & mask
            if top:
                holder = next(p for p, h in enumerate(self.hands) if h >> (top.bit_length() - 1) & 1)
                if self.count_mask >> holder & 1:
                    lower = max(lower, 1)
                else:
                    upper = min(upper, left - 1)
        return lower, upper

    def _ordered_moves(self, player: int, depth: int) -> list[int]:
        legal = _legal(self.hands[player], self.trick, self.trump, self.must_trump)
        moves = list(mask_indices(equivalent_tops(legal, self._in_play())))
        if not self.trick:
            if self.wants_tricks:
                moves.sort(key=lambda c: -(c % 13))
            else:
                moves.sort(key=lambda c: c % 13)
        else:
            best = trick_winner_index(self.trick, self.trump)
            winning_card = self.trick[best]
            winner = (self.leader + best) % self.n
            partner_wins = (self.max_mask >> winner & 1) == (self.max_mask >> player & 1)

            def beats(card: int) -> bool:
                if card // 13 == winning_card // 13:
                    return card > winning_card
                return card // 13 == self.trump

            if self.wants_tricks:
                if partner_wins:
                    moves.sort(key=lambda c: c % 13)
                else:
                    moves.sort(key=lambda c: (not beats(c), c % 13))
            else:
                moves.sort(key=lambda c: (beats(c), -(c % 13)))
        killer = self.killers.get(depth)
        if killer in moves:
            moves.remove(killer)
            moves.insert(0, killer)
        return moves


def _cards_above_all(cards: int, other_hands: list[int]) -> int:
    """How many of *cards* (one suit) lie above every card of that suit in *other_hands*."""
    highest_other = 0
    for hand in other_hands:
        highest_other |= hand
    if not highest_other:
        return cards.bit_count()
    return (cards >> highest_other.bit_length()).bit_count()


def brute_force_value(position: Position, count_mask: int, max_mask: int) -> int:
    """Plain minimax over every legal card, no pruning at all: the oracle for :class:`ReferenceSolver`.

    >>> p = Position.from_text("MZ; lead 0; S:A H:- D:- C:2 / S:K H:- D:- C:3 / S:- H:- D:A C:4")
    >>> brute_force_value(p, count_mask=0b001, max_mask=0b110)   # seat 0 ducks with the 2C
    0
    """
    hands = list(position.hands)
    n = len(hands)

    def rec(leader: int, trick: list[int]) -> int:
        player = (leader + len(trick)) % n
        if not hands[player]:
            return 0
        legal = _legal(hands[player], trick, position.trump, position.must_trump)
        maximising = bool(max_mask >> player & 1)
        best: int | None = None
        for card in mask_indices(legal):
            hands[player] &= ~(1 << card)
            new_trick = [*trick, card]
            if len(new_trick) == n:
                winner = (leader + trick_winner_index(new_trick, position.trump)) % n
                value = (count_mask >> winner & 1) + rec(winner, [])
            else:
                value = rec(leader, new_trick)
            hands[player] |= 1 << card
            if best is None or (value > best if maximising else value < best):
                best = value
        assert best is not None
        return best

    return rec(position.leader, list(position.trick))
