"""The browser client's catalogues (src/mizerka/web/js/i18n.js) read without a JavaScript engine: every key of the
English catalogue is in the Polish and Russian ones with the same placeholders in every form, and every plural entry
has the forms its language's ``Intl.PluralRules`` can ask for.

A placeholder lost in a translation (``"{name} zagrywa"`` without ``{card}``) or misspelt (``{nmae}``) shows the
reader a gap or a raw brace; a plural entry without "few" falls back to another form ("2 lew"). The keys' parity is
also checked by tests/web/test_web_ui.py (with Node when there is one); this test is about what is inside each entry.

The catalogue is parsed here by a small reader of the object literal it is written as: double-quoted strings,
bare or quoted keys, nested objects, trailing commas and line comments.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "mizerka" / "web" / "js" / "i18n.js"
LANGUAGES = ("en", "pl", "ru")
# The CLDR plural categories Intl.PluralRules gives for integers and fractions in each language.
PLURAL_FORMS = {"en": {"one", "other"}, "pl": {"one", "few", "many", "other"}, "ru": {"one", "few", "many", "other"}}
EXACT_ZERO = "=0"  # an exact form for n = 0 (as ICU's "=0"): it may leave out {n}
PLACEHOLDER = re.compile(r"\{(\w+)\}")

Entry = str | dict[str, str]


class _Reader:
    """Reads a JavaScript object literal of strings and objects of strings (what the catalogues are)."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def skip(self) -> None:
        while True:
            match = re.compile(r"\s+|//[^\n]*").match(self.text, self.pos)
            if not match or match.end() == self.pos:
                return
            self.pos = match.end()

    def expect(self, char: str) -> None:
        self.skip()
        if self.text[self.pos] != char:
            line = self.text.count("\n", 0, self.pos) + 1
            raise ValueError(f"i18n.js line {line}: expected {char!r}, found {self.text[self.pos:self.pos + 20]!r}")
        self.pos += 1

    def string(self) -> str:
        self.skip()
        match = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(self.text, self.pos)
        if not match:
            line = self.text.count("\n", 0, self.pos) + 1
            raise ValueError(f"i18n.js line {line}: expected a string, found {self.text[self.pos:self.pos + 20]!r}")
        self.pos = match.end()
        value: str = json.loads(match.group())
        return value

    def key(self) -> str:
        self.skip()
        if self.text[self.pos] == '"':
            return self.string()
        match = re.compile(r"[A-Za-z_$][\w$]*").match(self.text, self.pos)
        if not match:
            raise ValueError(f"i18n.js: expected a key at {self.text[self.pos:self.pos + 20]!r}")
        self.pos = match.end()
        return match.group()

    def value(self) -> object:
        self.skip()
        return self.object() if self.text[self.pos] == "{" else self.string()

    def object(self) -> dict[str, object]:
        self.expect("{")
        result: dict[str, object] = {}
        while True:
            self.skip()
            if self.text[self.pos] == "}":
                self.pos += 1
                return result
            key = self.key()
            if key in result:
                raise ValueError(f"i18n.js: the key {key!r} is written twice")
            self.expect(":")
            result[key] = self.value()
            self.skip()
            if self.text[self.pos] == ",":
                self.pos += 1


def read_catalogs(text: str) -> dict[str, dict[str, Entry]]:
    """The ``CATALOGS`` object of i18n.js's *text*, as Python dicts."""
    start = text.index("const CATALOGS = ")
    parsed = _Reader(text, text.index("{", start)).object()
    catalogs: dict[str, dict[str, Entry]] = {}
    for lang, catalog in parsed.items():
        assert isinstance(catalog, dict), lang
        catalogs[lang] = {}
        for key, entry in catalog.items():
            if isinstance(entry, dict) and all(isinstance(v, str) for v in entry.values()):
                catalogs[lang][key] = {form: str(text) for form, text in entry.items()}
            else:
                assert isinstance(entry, str), f"{lang} {key}: neither a string nor an object of strings"
                catalogs[lang][key] = entry
    return catalogs


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, Entry]]:
    return read_catalogs(SOURCE.read_text(encoding="utf-8"))


def forms(entry: Entry) -> dict[str, str]:
    return {"": entry} if isinstance(entry, str) else entry


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_reader_reads_what_the_catalogues_are_written_as() -> None:
    text = """const CATALOGS = {
      en: {  // a comment
        "a.b": "x {n}",
        "c": { one: "{n} card", "=0": "none", other: "{n} \\"cards\\"" },
      },
    };"""
    assert read_catalogs(text) == {"en": {"a.b": "x {n}", "c": {"one": "{n} card", "=0": "none",
                                                                  "other": '{n} "cards"'}}}
    with pytest.raises(ValueError, match="written twice"):
        read_catalogs('const CATALOGS = { en: { "a": "x", "a": "y" } };')


def test_three_catalogues_with_the_same_keys(catalogs: dict[str, dict[str, Entry]]) -> None:
    assert set(catalogs) == set(LANGUAGES)
    assert len(catalogs["en"]) > 400
    for lang in ("pl", "ru"):
        assert set(catalogs[lang]) == set(catalogs["en"]), (
            lang, sorted(set(catalogs["en"]) ^ set(catalogs[lang])))


def test_every_form_has_the_english_placeholders(catalogs: dict[str, dict[str, Entry]]) -> None:
    """Every form of every language has the placeholders of the English entry.  The count {n} is the one that a
    form may leave out: a "one" form that says the number in words ("the free seat", "Wolne miejsce") and an
    exact "=0" form ("bez wymiany"); no other form may."""
    problems = []
    for key, english in catalogs["en"].items():
        wanted: set[str] = set().union(*(placeholders(text) for text in forms(english).values()))
        for lang in LANGUAGES:
            for form, text in forms(catalogs[lang].get(key, "")).items():
                found = placeholders(text)
                may_lack = {"n"} if form in ("one", EXACT_ZERO) else set()
                if found - wanted or wanted - found - may_lack:
                    problems.append(f"{lang} {key} [{form or 'text'}]: {sorted(found)}, English {sorted(wanted)}")
    assert not problems, "\n".join(problems)


def test_every_plural_entry_has_its_languages_forms(catalogs: dict[str, dict[str, Entry]]) -> None:
    """A plural entry in English is one in Polish and Russian too, with exactly the categories the language has
    (plus an optional exact "=0" form, which all three languages then have)."""
    problems = []
    for key, english in catalogs["en"].items():
        for lang in LANGUAGES:
            entry = catalogs[lang].get(key, "")
            if isinstance(english, str) != isinstance(entry, str):
                problems.append(f"{lang} {key}: plural in one language, plain text in another")
                continue
            if isinstance(entry, str) or isinstance(english, str):
                continue
            if set(entry) - {EXACT_ZERO} != PLURAL_FORMS[lang]:
                problems.append(f"{lang} {key}: forms {sorted(entry)}, wanted {sorted(PLURAL_FORMS[lang])}")
            if (EXACT_ZERO in entry) != (EXACT_ZERO in english):
                problems.append(f"{lang} {key}: an exact {EXACT_ZERO!r} form in one language only")
    assert not problems, "\n".join(problems)


def test_a_count_of_no_cards_exchanged_reads_as_no_exchange(catalogs: dict[str, dict[str, Entry]]) -> None:
    """A seat that kept its hand is "no exchange", the review's word for it, never "exchanged 0 cards"."""
    for lang in LANGUAGES:
        exchanged = catalogs[lang]["table.exchanged"]
        assert isinstance(exchanged, dict)
        assert exchanged.get(EXACT_ZERO) == catalogs[lang]["review.kept"], lang
