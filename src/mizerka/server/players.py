"""Player profiles and their ratings.

Players are anonymous unless they *claim a name*: the server then makes a profile and hands out a secret
**player key**, once (only its SHA-256 is stored, like a seat token's).  A client sends the key when it takes
a seat; the seat is then the profile's (:attr:`mizerka.server.tables.SeatState.player`), its name is the
profile's, and everyone at the table sees that the name is registered: names of profiles are unique, ignoring
case and Unicode compatibility forms (:func:`name_key`), so the mark proves who sits there.

**Rated tables.**  A table created ``rated`` seats only profiles (and bots), gives no hints and allows no
undo.  When its match ends, every seat's result is stored with the match's last event, in the same
transaction, and the ratings move:

* the ratings are OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation, the ``openskill``
  package): each player has a skill estimate μ and its uncertainty σ, 25 and 25/3 at first.  Three players,
  each a team of one, ranked by their match totals (equal totals share a rank);
* the rating shown is the estimate on a familiar scale, :func:`display_rating`: ``1500 + 40 × (μ − 25)``, so a
  new profile shows 1500, a win raises it and a last place lowers it.  With fewer than :data:`PROVISIONAL_GAMES`
  rated matches it is *provisional* (σ is still large, and one match moves it far); the leaderboard lists the
  established players first, then the provisional ones, each by rating.  (A conservative number, μ − 3σ, would
  keep lucky newcomers off the top too, but it rises with every match played, lost ones included, which players
  rightly find strange);
* every bot level is rated too (one entry per level, id ``bot:<level>``), so the leaderboard has fixed points
  to read a human's rating against.  Two bots of one level at a table (quick play) are two results of the
  same entry: its μ moves by the sum of their moves and its variance shrinks by the sum of their shrinkages;
* a player who gives his seat up during a rated match keeps its result (a bot plays it out for him).

Statistics (per profile and bot level, rated matches only): matches played and won (the best total, ties
included), deals played and deals won (the best score of the deal, ties included), as the one Mizerka site
with a ranking keeps them.

>>> name_key("  Ala   KOT ")
'ala kot'
>>> name_key("Ａｌａ") == name_key("ala")
True
>>> display_rating(25.0), display_rating(27.5)
(1500, 1600)
"""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from collections.abc import Sequence
from typing import Any, Final

from mizerka.record import char_reason, name_key
from mizerka.server.chat import BLANKS, DEFAULT_IGNORABLE, is_default_ignorable
from mizerka.server.tables import TableError

__all__ = [
    "BOT_PREFIX",
    "DEFAULT_IGNORABLE",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "NAME_REASONS",
    "PROVISIONAL_GAMES",
    "SeatResult",
    "Standing",
    "bot_id",
    "check_name",
    "check_visible",
    "display_rating",
    "is_default_ignorable",
    "name_key",
    "rate_match",
    "without_emoji_selectors",
]

DEFAULT_MU = 25.0
"""A new player's skill estimate (OpenSkill's default)."""

DEFAULT_SIGMA = 25.0 / 3.0
"""A new player's uncertainty (OpenSkill's default)."""

PROVISIONAL_GAMES = 5
"""A rating is provisional until this many rated matches (the lobby also shows percentages only from here)."""

BOT_PREFIX = "bot:"
"""Bot levels are rated under the id ``bot:<level>``."""


MAX_KEY_CHARS = 120
"""The longest compared form a name may have (NFKC turns one character into as many as 18)."""

NAME_REASONS: Final = {
    "name_empty": "no name, or spaces alone",
    "name_too_long": "over `max` characters (the field's limit, 40)",
    "name_unprintable_char": "a character that is not printable (a control or format character): `char`, `char_name`",
    "name_invisible_char": "an invisible character (a blank filler, a default-ignorable one): `char`, `char_name`",
    "name_leading_mark": "begins with a combining mark, which has no letter to sit on: `char`, `char_name`",
    "name_dots": "dots alone, which are no player page's address",
    "name_bot_prefix": "begins with `prefix` (\"bot:\"), the form of the computer levels' entries",
    "name_expands_too_long": "`length` characters once its compatibility forms are spelled out, over `max`",
    "name_taken": "a profile has this name (compared ignoring case and compatibility forms)",
    "name_retired": "a deleted profile had this name: a name is never given to another player",
    "name_not_profile": "not the name of the player key's profile, which is `profile`",
    "name_needed": "neither a name nor a player key to take a seat with",
}
"""The reasons a player's name is refused for, each with what it means and its parameters: a refusal's ``reason``
(docs/protocol.md), ``{"code": <one of these>, <its parameters>}``, lets a client say why in its own language."""


def check_name(name: str) -> tuple[str, str]:
    """A name a profile may claim, stripped, and its compared form (:func:`name_key`).

    The registered mark proves that a seat is the profile's, so a name must show what it is: no invisible
    character (:func:`check_visible`, the rule a seat's name obeys too), not the ``bot:`` form of a computer
    level's entry, and not dots alone (``.`` and ``..`` are no page's address: URLs drop them).  (Look-alikes
    from other scripts, a Cyrillic А for a Latin A, are distinct names: telling them apart would need Unicode's
    confusables data, which the standard library lacks.)

    Raises:
        TableError: ``bad_name``, naming the problem, with its ``reason`` (:data:`NAME_REASONS`).

    >>> check_name("  Ala ")
    ('Ala', 'ala')
    >>> check_name("Ala\u3164")
    Traceback (most recent call last):
    ...
    mizerka.server.tables.TableError: bad_name: the name holds the invisible character U+3164 (HANGUL FILLER); ...
    >>> check_name("Ala\u034f")
    Traceback (most recent call last):
    ...
    mizerka.server.tables.TableError: bad_name: the name holds the invisible character U+034F (COMBINING GRAPHEME ...
    """
    name = without_emoji_selectors(name.strip())
    check_visible(name)
    key = name_key(name)
    if not key:
        raise TableError("bad_name", "the name is empty", {"code": "name_empty"})
    if not key.strip("."):
        raise TableError("bad_name", f"a name of dots alone ({name!r}) cannot be a player page's address "
                                     "(/api/players/.. is the folder above); add another character",
                         {"code": "name_dots"})
    if key.startswith(BOT_PREFIX):
        raise TableError("bad_name", f"names starting with {BOT_PREFIX!r} are the computer levels' entries",
                         {"code": "name_bot_prefix", "prefix": BOT_PREFIX})
    if len(key) > MAX_KEY_CHARS:
        raise TableError("bad_name", f"the name grows to {len(key)} characters once its compatibility forms are "
                                     f"spelled out (at most {MAX_KEY_CHARS})",
                         {"code": "name_expands_too_long", "length": len(key), "max": MAX_KEY_CHARS})
    return name, key


def without_emoji_selectors(name: str) -> str:
    """*name* without the presentation selectors U+FE0E and U+FE0F that follow a symbol: they choose between an
    emoji's text and picture form (phone keyboards add U+FE0F after ❤, ☺ and the like), not what it is, so "❤"
    and "❤" + U+FE0F are one name.  After a letter or a digit, where they draw nothing, they stay, for
    :func:`check_visible` to refuse.

    >>> [hex(ord(ch)) for ch in without_emoji_selectors("Ola \u2764\ufe0f")], without_emoji_selectors("Ala\ufe0f")
    (['0x4f', '0x6c', '0x61', '0x20', '0x2764'], 'Ala\ufe0f')
    """
    kept: list[str] = []
    for ch in name:
        if ch in "\ufe0e\ufe0f" and kept and unicodedata.category(kept[-1]).startswith("S"):
            continue
        kept.append(ch)
    return "".join(kept)


def check_visible(name: str) -> None:
    """Refuse a player's name that does not show what it is: one holding an invisible character (a format
    character such as a zero-width space or joiner, a bidirectional control, a control character, a line or
    paragraph separator, a blank filler such as U+3164 or the empty braille pattern, :data:`BLANKS`, or any other
    default-ignorable code point, :data:`DEFAULT_IGNORABLE`: variation selectors, the combining grapheme
    joiner…).

    The one rule for every name a player goes by: a profile's (:func:`check_name`) and a seat's (the lobby API's
    join and quick play).  With such a character "Ala" would have an invisible twin that passes for her (a table
    calls a second "Ala" "Ala (2)", but not "Ala" with a joiner after it), and a name of fillers alone would show
    as a blank.  Letters of any script, marks that draw (an accent), emoji and spaces inside a name are fine; a
    variation selector is not (it is default-ignorable: after a letter it draws nothing), so a name is first put
    through :func:`without_emoji_selectors`, which drops the ones after a symbol that phone keyboards add.

    Raises:
        TableError: ``bad_name``, naming the first such character (``reason``: ``name_invisible_char`` or
        ``name_leading_mark``, with the character: :func:`char_reason`).

    A combining mark may follow a letter (an accent), but not begin the name: it would draw on whatever the name is
    shown after, and no record holds such a name (:func:`mizerka.record.check_name`).

    >>> check_visible("Łukasz Ǆ 王 😀")
    >>> check_visible("\u3164")
    Traceback (most recent call last):
    ...
    mizerka.server.tables.TableError: bad_name: the name holds the invisible character U+3164 (HANGUL FILLER); ...
    """
    from mizerka.record import char_name

    for ch in name:
        if ch in BLANKS or is_default_ignorable(ch) or unicodedata.category(ch) in ("Cf", "Cc", "Zl", "Zp"):
            raise TableError("bad_name", f"the name holds the invisible character {char_name(ch)}; a player's name "
                                         "must show what it is", char_reason("name_invisible_char", ch))
    if name and unicodedata.category(name[0]).startswith("M"):  # a record refuses it too (record.check_name)
        raise TableError("bad_name", f"the name begins with the combining mark {char_name(name[0])}, which has no "
                                     "letter to sit on; a player's name must show what it is",
                         char_reason("name_leading_mark", name[0]))


def bot_id(level: str) -> str:
    """The rating id of a bot level.

    >>> bot_id("expert")
    'bot:expert'
    """
    return BOT_PREFIX + level


def display_rating(mu: float) -> int:
    """The rating shown: the skill estimate on a familiar scale (1500 for a new player)."""
    return round(1500 + 40 * (mu - DEFAULT_MU))


@dataclasses.dataclass(frozen=True)
class Standing:
    """A profile's (or a bot level's) rating and statistics, as stored."""

    id: str
    name: str
    kind: str  # "human" or "bot"
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    wins: int = 0
    deals: int = 0
    deals_won: int = 0
    created_at: float = 0.0

    @property
    def rating(self) -> int:
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def public(self) -> dict[str, Any]:
        """The fields the API shows (``PlayerInfo`` without ``recent``)."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "rating": self.rating,
                "provisional": self.provisional, "mu": self.mu, "sigma": self.sigma, "games": self.games,
                "wins": self.wins, "deals": self.deals, "deals_won": self.deals_won, "created_at": self.created_at}


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """One seat's result in a finished rated match, with its player's rating before and after."""

    seat: int
    player: str
    total: int
    rank: int
    won: bool
    deals: int
    deals_won: int
    before: tuple[float, float]
    after: tuple[float, float]


def rate_match(
    players: Sequence[str],
    standings: dict[str, Standing],
    totals: Sequence[int],
    deal_scores: Sequence[Sequence[int | None]],
) -> tuple[list[SeatResult], dict[str, Standing]]:
    """Rate one finished match.

    Args:
        players: the rating id of each seat (a profile's, or :func:`bot_id`).
        standings: every id's standing before the match.
        totals: the match totals by seat.
        deal_scores: for each deal, the score of each seat (``None`` for a seat that sat it out).

    Returns:
        Each seat's result, and the new standing of each id.

    >>> players = ["ala", "bot:rules", "bot:rules"]
    >>> before = {"ala": Standing("ala", "Ala", "human"), "bot:rules": Standing("bot:rules", "rules", "bot")}
    >>> results, after = rate_match(players, before, [12, -5, -7], [[3, -1, -2], [-2, 1, 1]])
    >>> [(r.rank, r.won, r.deals_won) for r in results]
    [(1, True, 1), (2, False, 1), (3, False, 1)]
    >>> after["ala"].rating > 1500, after["ala"].games, after["bot:rules"].games
    (True, 1, 2)
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    n = len(players)
    ranks = [1 + sum(1 for other in totals if other > total) for total in totals]
    teams = [[model.rating(mu=standings[p].mu, sigma=standings[p].sigma)] for p in players]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    moves: dict[str, list[tuple[float, float]]] = {}
    for player, team in zip(players, rated, strict=True):
        moves.setdefault(player, []).append((team[0].mu, team[0].sigma))
    best = max(totals)
    won_deals = [0] * n
    played = [0] * n
    for scores in deal_scores:
        active = [s for s in scores if s is not None]
        top = max(active)
        for seat, score in enumerate(scores):
            if score is not None:
                played[seat] += 1
                won_deals[seat] += score == top
    after: dict[str, Standing] = {}
    for player, updates in moves.items():
        old = standings[player]
        mu = old.mu + sum(m - old.mu for m, _ in updates)
        variance = old.sigma ** 2 + sum(s ** 2 - old.sigma ** 2 for _, s in updates)
        seats = [i for i, p in enumerate(players) if p == player]
        after[player] = dataclasses.replace(
            old, mu=mu, sigma=math.sqrt(max(variance, 1e-6)), games=old.games + len(seats),
            wins=old.wins + sum(totals[i] == best for i in seats), deals=old.deals + sum(played[i] for i in seats),
            deals_won=old.deals_won + sum(won_deals[i] for i in seats))
    results = [
        SeatResult(seat=i, player=p, total=totals[i], rank=ranks[i], won=totals[i] == best, deals=played[i],
                   deals_won=won_deals[i], before=(standings[p].mu, standings[p].sigma),
                   after=(after[p].mu, after[p].sigma))
        for i, p in enumerate(players)
    ]
    return results, after
