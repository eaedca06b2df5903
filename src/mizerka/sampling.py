"""Dealing the unknown cards of an observation at random: the worlds that search plays in.

:func:`sample_deal` (also reachable as :meth:`Deal.from_observation`) takes what one seat knows and
returns an ordinary :class:`~mizerka.deal.Deal` that agrees with all of it: the same history of public
actions, the seat's own cards, discards and draws exactly as they were, and hidden cards placed at random
where they could be.

What constrains the hidden cards:

* the cards the seat holds, discarded or drew, the cards played, and a turned-up talon card are known;
* every other seat holds as many cards as the observation says, and none of a suit it has failed to
  follow (a void shown in play);
* a player who exchanged *k* cards discarded *k* unknown cards and drew *k* cards from the top of the talon,
  which are among the cards it now holds or has played; the turned-up card, when there is one, is the first
  card drawn by the first player who exchanged anything;
* whatever is left is the rest of the talon (or the undealt cards, during the contract choice).

Method: the unknown cards are shuffled and handed out one by one, each to a holder with room that may hold
it, chosen with probability proportional to the room left; a dead end restarts the draw, and after a few
restarts an exact assignment by suit counts (a small max-flow) is drawn instead.  The result is rebuilt into a
deck order, and the public history is replayed on it with every action checked, so a world that broke any
rule could never be returned.  In the seed-002 literal variant, where players draw during play, voids hold
only from the player's last draw on; there worlds are drawn and replayed until one is consistent.

Where the turned-up card is and which voids bind are read by :func:`shown_card_holder` (and
:func:`shown_card_drawer`) and :func:`binding_voids`, which the bots' own reasoning shares.

>>> import random
>>> from mizerka.deal import Deal
>>> deal = Deal.random(3, dealer=0)
>>> for text in ("H", "exchange " + str(deal.hand(1).lowest()), "keep", "keep"):
...     _ = deal.play(text)
>>> observation = deal.observation(2)
>>> world = sample_deal(observation, random.Random(1))
>>> world.hands[2] == deal.hands[2], world.history == deal.history[:1] + world.history[1:]
(True, True)
>>> world.observation(2) == observation
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mizerka.cards import SUIT_MASKS, CardSet, Suit, mask_indices
from mizerka.deal import Action, Choose, Deal, Exchange, Observation, Phase, Play
from mizerka.rules import DealPattern, ExchangeMode

__all__ = ["SamplingError", "binding_voids", "sample_deal", "shown_card_drawer", "shown_card_holder"]

_RESTARTS = 24
_REPLENISH_ATTEMPTS = 2000


class SamplingError(ValueError):
    """No deal is consistent with the observation (it was not made by a real deal)."""


# -- what the table knows about hidden hands: shared with the bots (mizerka.bots.rules_bot re-exports these) -----


def shown_card_drawer(observation: Observation) -> int | None:
    """The seat that drew the turned-up talon card (variant option ``show_trump_card``) in its exchange, or ``None``.

    The card is turned up on top of the talon and players exchange in order of play (forehand, middlehand,
    dealer), each drawing from the top, so the first seat in that order that exchanged anything drew it, and
    everybody knows it: the counts of the exchanges are public.  ``None`` while nobody has drawn it, where
    no card is turned up, and where the talon is not exchanged: with ``exchange_mode`` NONE the card stays on
    the dead talon, with REPLENISH it was set aside face up before play.  The answer stays the same after the
    card is played; :func:`shown_card_holder` says whether it is still in that hand.
    """
    if observation.shown_card is None or observation.rules.exchange_mode is not ExchangeMode.STANDARD:
        return None
    for seat in observation.active_seats:  # the order of the exchange
        if observation.exchange_counts[seat]:  # 0: kept every card; None: not yet exchanged
            return seat
    return None


def shown_card_holder(observation: Observation) -> int | None:
    """The seat whose hand holds the turned-up talon card now, or ``None``.

    That is :func:`shown_card_drawer` until the card is played: the whole table then knows one card of
    that hand, and that no other hand holds it.  ``None`` where nobody drew it (it is still on the talon,
    set aside, or no card is turned up) and once it has been played.

    >>> from mizerka.rules import parse_variant
    >>> deal = Deal.random(6, rules=parse_variant("standard,show_trump_card"), dealer=0)
    >>> _ = deal.play("S")                          # a trump contract: the talon's top card is turned up
    >>> print(shown_card_holder(deal.observation(0)))  # still on the talon
    None
    >>> _ = deal.play("keep")                       # forehand (seat 1) keeps its cards ...
    >>> _ = deal.play(Exchange(CardSet([deal.hand(2).lowest()])))  # ... middlehand (seat 2) takes one
    >>> shown_card_holder(deal.observation(0)), deal.hands[2] >> deal.shown_card & 1
    (2, 1)
    """
    drawer = shown_card_drawer(observation)
    shown = observation.shown_card
    if drawer is None or shown is None or observation.played.mask >> shown & 1:
        return None
    return drawer


def binding_voids(observation: Observation) -> dict[int, frozenset[Suit]]:
    """The suits each active seat is known to lack *now*: the voids a world must respect.

    A player who fails to follow suit shows the whole table that the suit is gone from his hand
    (:meth:`Observation.voids`).  Where hands only shrink during play, that lasts to the end of the deal,
    and the result is exactly :meth:`Observation.voids`: every variant but ``exchange_mode`` REPLENISH.

    In REPLENISH (seed002-literal) each player draws the stock's top card right after each card he plays
    while the stock lasts (tricks 1 to 4).  His own draw may bring the suit back; a draw by *another* player
    cannot.  So a void binds only if it was shown after the seat's own last draw.  As the player who fails to
    follow draws at once, a void shown while the stock lasts never binds, one shown after it ran out always
    does.  Only public plays are read, so every observer (spectators included) gets the same answer.

    >>> from mizerka.rules import get_variant
    >>> deal = Deal.random(0, rules=get_variant("seed002-literal"), dealer=0)
    >>> for action in ("NT", "3D", "8C"):  # forehand (seat 1) leads a diamond, seat 2 has none and draws
    ...     _ = deal.play(action)
    >>> observation = deal.observation(0)
    >>> observation.voids()[2], binding_voids(observation)[2]
    (frozenset({<Suit.DIAMONDS: 1>}), frozenset())
    """
    if observation.rules.exchange_mode is not ExchangeMode.REPLENISH:
        return observation.voids()
    _, void_times = _timed_plays(observation)
    last_draw = {seat: -1 for seat in observation.active_seats}  # the play after which the seat last drew
    for time, seat in enumerate(_stock_draw_events(observation)):
        last_draw[seat] = time
    return {
        seat: frozenset(Suit(suit) for suit, time in void_times.get(seat, []) if time > last_draw[seat])
        for seat in observation.active_seats
    }



def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _deck_from_piles(
    first: list[list[int]], rest: list[list[int]], talon: list[int], pattern: DealPattern
) -> list[int]:
    """The deck order that :func:`~mizerka.deal.deal_piles` splits into these piles (talon bottom to top)."""
    deck = [-1] * 52
    if pattern is DealPattern.ROUND_ROBIN_4_PILES:
        for role in range(3):
            pile = first[role] + rest[role]
            for r, card in enumerate(pile):
                deck[4 * r + role] = card
        for r, card in enumerate(talon):
            deck[4 * r + 3] = card
        return deck
    for role in range(3):
        for r, card in enumerate(first[role]):
            deck[3 * r + role] = card
        for r, card in enumerate(rest[role]):
            deck[18 + 3 * r + role] = card
    for i, card in enumerate(reversed(talon)):
        deck[39 + i] = card
    return deck


def _assign(cards: list[int], capacity: list[int], banned: list[int], rng: random.Random) -> list[list[int]]:
    """Hand out *cards* to holders with the given room, no holder getting a card of a suit in its banned mask."""
    total = sum(capacity)
    if total != len(cards):
        raise SamplingError(f"{len(cards)} unknown cards for {total} hidden places")
    for _ in range(_RESTARTS):
        rng.shuffle(cards)
        room = list(capacity)
        out: list[list[int]] = [[] for _ in capacity]
        for card in cards:
            bit = 1 << card
            weights = [room[h] if not banned[h] & bit else 0 for h in range(len(room))]
            weight = sum(weights)
            if not weight:
                break
            pick = rng.randrange(weight)
            holder = 0
            while pick >= weights[holder]:
                pick -= weights[holder]
                holder += 1
            out[holder].append(card)
            room[holder] -= 1
        else:
            return out
    return _assign_by_flow(cards, capacity, banned, rng)


def _assign_by_flow(cards: list[int], capacity: list[int], banned: list[int], rng: random.Random) -> list[list[int]]:
    """An exact assignment: how many cards of each suit each holder gets, by augmenting paths, then which ones."""
    suits = [[c for c in cards if c // 13 == s] for s in range(4)]
    holders = len(capacity)
    flow = [[0] * 4 for _ in range(holders)]
    room = list(capacity)
    left = [len(s) for s in suits]

    def allowed(h: int, s: int) -> bool:
        return not banned[h] & SUIT_MASKS[s]

    # Augment one card at a time: suit s -> holder h, possibly rerouting through other holders/suits.
    for s in range(4):
        while left[s]:
            # BFS over suits; an edge suit a -> suit b exists through holder h if h may take a and holds some b.
            parent: dict[int, tuple[int, int]] = {s: (-1, -1)}
            queue = [s]
            found: tuple[int, int] | None = None
            while queue and found is None:
                a = queue.pop(0)
                for h in rng.sample(range(holders), holders):
                    if not allowed(h, a):
                        continue
                    if room[h] > 0:
                        found = (a, h)
                        break
                    for b in range(4):
                        if b not in parent and flow[h][b] > 0:
                            parent[b] = (a, h)
                            queue.append(b)
            if found is None:
                raise SamplingError("no way to place the hidden cards consistently with the voids shown")
            a, h = found
            flow[h][a] += 1
            room[h] -= 1
            while parent[a][0] != -1:
                prev, via = parent[a]
                flow[via][a] -= 1
                flow[via][prev] += 1
                a = prev
            left[s] -= 1
    out: list[list[int]] = [[] for _ in range(holders)]
    for s in range(4):
        pool = suits[s][:]
        rng.shuffle(pool)
        for h in range(holders):
            out[h].extend(pool[: flow[h][s]])
            pool = pool[flow[h][s] :]
    return out


def sample_deal(observation: Observation, rng: random.Random) -> Deal:
    """A deal consistent with *observation*, its hidden cards dealt at random (see the module's docs).

    Raises:
        SamplingError: if no deal can match the observation.
    """
    if observation.rules.exchange_mode is ExchangeMode.REPLENISH and observation.phase is not Phase.CHOOSE:
        for _ in range(_REPLENISH_ATTEMPTS):
            world = _sample_once(observation, rng)
            if world is not None:
                return world
        raise SamplingError("found no deal consistent with the observation")
    world = _sample_once(observation, rng)
    if world is None:
        raise SamplingError("the observation's history cannot be replayed on any deal")
    return world


def _played_by(observation: Observation) -> dict[int, list[int]]:
    played: dict[int, list[int]] = {seat: [] for seat in observation.active_seats}
    for actor, action in observation.history:
        if isinstance(action, Play):
            played[actor].append(int(action.card))
    return played


def _sample_once(obs: Observation, rng: random.Random) -> Deal | None:
    rules = obs.rules
    active = obs.active_seats
    me = obs.seat if obs.seat in active else None
    others = [seat for seat in active if seat != me]
    played = _played_by(obs)
    played_mask = _mask([c for cards in played.values() for c in cards])

    known = played_mask
    if me is not None:
        known |= obs.dealt.mask | obs.drawn.mask | obs.hand.mask
    shown = int(obs.shown_card) if obs.shown_card is not None else None

    first: list[list[int]] = [[], [], []]
    rest: list[list[int]] = [[], [], []]

    if obs.phase is Phase.CHOOSE:
        unknown = mask_indices(((1 << 52) - 1) & ~known)
        n_first = rules.cards_before_choice
        sizes = [n_first] * len(others) + [len(unknown) - n_first * len(others)]
        groups = _assign(unknown, sizes, [0] * len(sizes), rng)
        for i, seat in enumerate(others):
            first[active.index(seat)] = groups[i]
        undealt = groups[-1]
        if me is not None:
            first[active.index(me)] = mask_indices(obs.first_cards.mask)
        for role in range(3):
            rest[role] = [undealt.pop() for _ in range(13 - n_first)]
        deck = _deck_from_piles(first, rest, undealt, rules.deal_pattern)
        return _replay(obs, deck, {})

    counts = obs.exchange_counts
    voids = binding_voids(obs)  # where players draw during play, only those shown after the seat's last draw
    # The first player who exchanged anything drew the turned-up card (and may have played it since); where
    # nobody did, it is still on the talon, or set aside face up (out of play) where players draw from a stock.
    drawer = shown_card_drawer(obs)
    holder = shown_card_holder(obs)  # the drawer, until the card is played
    # ... on top of a talon that nobody draws from (no exchange: the talon is dead, its top card turned up)
    shown_in_talon = (
        shown is not None
        and rules.exchange_mode in (ExchangeMode.STANDARD, ExchangeMode.NONE)
        and drawer is None
        and not played_mask >> shown & 1
    )
    if shown is not None:
        known |= 1 << shown

    # Holders: each other seat's hand, each other seat's discards, the rest of the talon (or stock).
    capacity: list[int] = []
    banned: list[int] = []
    for seat in others:
        size = obs.hand_sizes[seat]
        capacity.append(size - (1 if holder == seat else 0))  # one card of that hand is known
        ban = 0
        for suit in voids.get(seat, ()):
            ban |= SUIT_MASKS[int(suit)]
        banned.append(ban)
    for seat in others:
        capacity.append(counts[seat] or 0)
        banned.append(0)
    hidden_talon = obs.talon_size + obs.stock_size
    set_aside_hidden = rules.exchange_mode is ExchangeMode.REPLENISH and shown is None
    capacity.append(hidden_talon - (1 if shown_in_talon else 0) + (1 if set_aside_hidden else 0))
    banned.append(0)

    unknown = mask_indices(((1 << 52) - 1) & ~known)
    groups = _assign(unknown, capacity, banned, rng)
    hands = {seat: groups[i] for i, seat in enumerate(others)}
    discards = {seat: groups[len(others) + i] for i, seat in enumerate(others)}
    talon_rest = groups[-1]
    if shown is not None and holder is not None and holder != me:
        hands[holder].append(shown)

    # Which of each other player's cards it drew from the talon.
    drawn: dict[int, list[int]] = {}
    if me is not None:
        hands[me] = mask_indices(obs.hand.mask)
        discards[me] = mask_indices(obs.discards.mask)
        drawn[me] = mask_indices(obs.drawn.mask)
    stock_draws: dict[int, list[int]] = {}
    for seat in others:
        pool = hands[seat] + played[seat]
        if rules.exchange_mode is ExchangeMode.REPLENISH:
            drawn[seat] = []
            continue
        k = counts[seat] or 0
        must = [shown] if shown is not None and drawer == seat else []
        choices = [c for c in pool if c not in must]
        drawn[seat] = must + rng.sample(choices, k - len(must))
    event_card: dict[int, int] = {}
    if rules.exchange_mode is ExchangeMode.REPLENISH:
        plays, void_times = _timed_plays(obs)
        event_times: dict[int, list[int]] = {seat: [] for seat in active}
        for time, seat in enumerate(_stock_draw_events(obs)):
            event_times[seat].append(time)
        play_time = {card: time for time, (_, card) in enumerate(plays)}
        for seat in active:
            if seat == me:
                candidates = mask_indices((obs.hand.mask | _mask(played[seat])) & ~obs.dealt.mask)
            else:
                candidates = hands[seat] + played[seat]
            chosen = _schedule_draws(
                candidates, event_times[seat], play_time, void_times.get(seat, []), seat == me, rng
            )
            if chosen is None:
                return None
            event_card.update(chosen)
            stock_draws[seat] = list(chosen.values())

    # Rebuild the piles.
    for role, seat in enumerate(active):
        current = set(hands[seat]) | set(played[seat]) | set(discards.get(seat, []))
        dealt = current - set(drawn.get(seat, [])) - set(stock_draws.get(seat, []))
        if me is not None and seat == me:
            first_cards = mask_indices(obs.first_cards.mask)
        else:
            ordered = sorted(dealt)
            rng.shuffle(ordered)
            first_cards = ordered[: rules.cards_before_choice]
        first[role] = first_cards
        rest[role] = [c for c in sorted(dealt) if c not in set(first_cards)]
        rng.shuffle(rest[role])
        if len(first[role]) + len(rest[role]) != 13:
            return None

    if rules.exchange_mode is ExchangeMode.REPLENISH:
        drawn_in_order = [event_card[time] for time in sorted(event_card)]
        set_aside = shown if shown is not None else talon_rest.pop()
        stock_bottom_to_top = talon_rest + list(reversed(drawn_in_order))
        talon = [*stock_bottom_to_top, set_aside]
    else:
        talon = list(talon_rest)
        rng.shuffle(talon)
        for seat in reversed(active):
            group = [c for c in drawn.get(seat, []) if c != shown]
            rng.shuffle(group)
            talon.extend(group)
            if shown is not None and drawer == seat:
                talon.append(shown)
        if shown_in_talon and shown is not None:
            talon.append(shown)
    if len(talon) != 13:
        return None
    deck = _deck_from_piles(first, rest, talon, rules.deal_pattern)
    return _replay(obs, deck, {seat: _mask(cards) for seat, cards in discards.items()})


def _stock_draw_events(obs: Observation) -> list[int]:
    """The seats that drew from the stock, in order: one draw after each card played while the stock lasted."""
    stock = 12
    events = []
    for actor, action in obs.history:
        if isinstance(action, Play) and stock:
            events.append(actor)
            stock -= 1
    return events


def _timed_plays(obs: Observation) -> tuple[list[tuple[int, int]], dict[int, list[tuple[int, int]]]]:
    """Every play as (seat, card) in order, and each seat's shown voids as (suit, time of the play)."""
    plays: list[tuple[int, int]] = []
    voids: dict[int, list[tuple[int, int]]] = {}
    led = -1
    for actor, action in obs.history:
        if not isinstance(action, Play):
            continue
        card = int(action.card)
        if len(plays) % 3 == 0:
            led = card // 13
        elif card // 13 != led:
            voids.setdefault(actor, []).append((led, len(plays)))
        plays.append((actor, card))
    return plays, voids


def _schedule_draws(
    candidates: list[int],
    times: list[int],
    play_time: dict[int, int],
    voids: list[tuple[int, int]],
    all_must: bool,
    rng: random.Random,
) -> dict[int, int] | None:
    """Which card a seat drew at each of its draw *times*, so that no card is played before it is drawn and no
    card of a suit the seat showed void in was held then.  Earliest deadline first over the cards that must have
    been drawn; the other draws are random.  ``None`` if impossible."""
    never = 1 << 30
    window: dict[int, tuple[int, int]] = {}
    for card in candidates:
        deadline = play_time.get(card, never)
        earliest = max((t for suit, t in voids if suit == card // 13 and t < deadline), default=-1)
        window[card] = (earliest, deadline)
    must = [c for c in candidates if all_must or window[c][0] >= 0]
    optional = [c for c in candidates if c not in set(must)]
    rng.shuffle(optional)
    if len(must) > len(times):
        return None
    chosen: dict[int, int] = {}
    for time in times:
        ready = [c for c in must if window[c][0] <= time < window[c][1]]
        if ready:
            card = min(ready, key=lambda c: window[c][1])
            must.remove(card)
        else:
            fits = [c for c in optional if window[c][1] > time]
            if not fits or (all_must and must):
                return None
            card = fits[0]
            optional.remove(card)
        chosen[time] = card
    return None if must else chosen


def _replay(obs: Observation, deck: list[int], discards: dict[int, int]) -> Deal | None:
    deal = Deal(deck, rules=obs.rules, dealer=obs.dealer, allowed_contracts=obs.allowed_contracts)
    for actor, public in obs.history:
        action: Action = Exchange(CardSet(discards.get(actor, 0))) if isinstance(public, int) else public
        if deal.to_move != actor or not deal.is_legal(action):
            return None
        if isinstance(action, (Choose, Exchange, Play)):
            deal.push(action)
    if obs.seat is not None and obs.seat in obs.active_seats and deal.hands[obs.seat] != obs.hand.mask:
        return None
    return deal

