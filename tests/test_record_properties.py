"""Records round-trip: any match, finished or not, in any variant, reads back equal from both forms."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mizerka import Match, get_variant
from mizerka.record import MatchRecord, RecordError, check_name, name_key, new_salt, read, read_json, read_text
from test_record import play_random

VARIANT_NAMES = ["standard", "no-exchange", "four-players", "seed002-literal", "standard,contracts=NT+MZ"]


def _recordable(name: str) -> bool:
    """Whether a record may hold *name* as a player's (:func:`mizerka.record.check_name`)."""
    try:
        check_name(name)
    except RecordError:
        return False
    return True


@st.composite
def records(draw: st.DrawFn) -> tuple[Match, MatchRecord]:
    name = draw(st.sampled_from(VARIANT_NAMES))
    from mizerka import parse_variant

    rules = get_variant(name) if "," not in name else parse_variant(name)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    per_deal = rules.n_tricks * 3 + 4
    n_actions = draw(st.one_of(st.none(), st.integers(0, per_deal * 3)))
    names = draw(st.lists(st.text(min_size=1, max_size=12).filter(_recordable),
                          min_size=rules.n_seats, max_size=rules.n_seats, unique_by=name_key))
    match = play_random(Match(rules, seed=seed, players=names), rng, n_actions)
    salted = draw(st.booleans())
    salts = [new_salt(rng) for _ in match.decks] if salted else None
    event = draw(st.one_of(st.none(), st.text(max_size=30).filter(str.isprintable)))
    return match, MatchRecord.from_match(match, event=event, salts=salts)


@settings(max_examples=40, deadline=None)
@given(records())
def test_records_round_trip(case: tuple[Match, MatchRecord]) -> None:
    match, record = case
    text = record.to_text()
    assert read_text(text) == record
    assert read_text(text).to_text() == text
    assert read_json(record.to_json()) == record
    assert read(record.to_json(indent=None)) == record
    replay = record.to_match()
    assert replay.history()[: len(record.deals)] == match.history()[: len(record.deals)]
    assert replay.totals == match.totals
    assert record.totals == tuple(match.totals)
    assert record.is_over() == match.is_over()
    assert record.verify_commitments() == tuple(d.number for d in record.deals if d.salt is not None)
