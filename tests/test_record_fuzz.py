"""Fuzzing the record readers: whatever the input, they return a valid record or raise a documented error.

The documented errors are :class:`RecordError` and its subclasses (:class:`RecordSyntaxError`,
:class:`CommitmentError`); anything else escaping the reader is a bug.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mizerka.record import MatchRecord, RecordError, read, read_json, read_text

DATA = Path(__file__).parent / "data" / "records"
SAMPLES = {
    name: (DATA / name).read_text(encoding="utf-8")
    for name in ("partial.mzn", "score-only.mzn", "standard-seed7.mzn", "standard-seed7.json")
}


def read_or_documented_error(source: str | bytes) -> MatchRecord | None:
    try:
        record = read(source)
    except RecordError:
        return None
    # whatever was accepted is a whole, valid record that writes and reads back equal
    assert read_text(record.to_text()) == record
    return record


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    read_or_documented_error(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*'[]"{}:@%-+0123456789 \n\\ASHDCKQJT', "Deal", "Play", "Exchange", "Variant"]),
                max_size=150).map("".join))
def test_random_record_like_text(text: str) -> None:
    read_or_documented_error(text)
    read_or_documented_error("[RecordVersion \"1\"]\n" + text)


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(8)
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(rng.randrange(len(lines)), lines[i])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3 and lines[i]:
        k = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:k] + rng.choice('"[]\\ 0123456789AKQJTSHDC:@-+{},x\x00é') + lines[i][k + 1:]
    elif kind == 4 and lines[i]:
        k = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:k] + lines[i][k + 1:]
    elif kind == 5:
        words = lines[i].split(" ")
        if len(words) > 2:
            a, b = rng.randrange(len(words)), rng.randrange(len(words))
            words[a], words[b] = words[b], words[a]
            lines[i] = " ".join(words)
    elif kind == 6:
        lines = lines[: rng.randrange(len(lines) + 1)]
    else:
        lines[i] = lines[i].replace(rng.choice("0123456789"), rng.choice("0123456789"))
    return "\n".join(lines)


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(sorted(SAMPLES)), st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_mutated_valid_records(name: str, seed: int, n_mutations: int) -> None:
    rng = random.Random(seed)
    text = SAMPLES[name]
    for _ in range(n_mutations):
        text = _mutate(text, rng)
    read_or_documented_error(text)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**32 - 1), JSON_VALUES)
def test_mutated_json_records(seed: int, value: object) -> None:
    rng = random.Random(seed)
    data = json.loads(SAMPLES["standard-seed7.json"] if seed % 2 else read_text(SAMPLES["score-only.mzn"]).to_json())
    # replace one field somewhere in the tree with an arbitrary JSON value
    target: object = data
    path = []
    while isinstance(target, (dict, list)) and target and rng.random() < 0.7:
        key = rng.choice(sorted(target)) if isinstance(target, dict) else rng.randrange(len(target))
        path.append((target, key))
        target = target[key]  # type: ignore[index]
    if path:
        parent, key = path[-1]
        parent[key] = value  # type: ignore[index]
    else:
        data = value
    # an accepted record is valid by construction; a rejected one must raise a documented error
    with contextlib.suppress(RecordError):
        read_json(json.dumps(data))
