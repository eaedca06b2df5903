"""The `mizerka` command: lazy subcommands, rules, deal (from the variant's first dealer by default), replay, and
clean errors (an output that cannot be written, such as ``/dev/full``, is a message, not a traceback)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mizerka.cards import CardSet
from mizerka.cli import COMMANDS, LazyGroup, cli
from mizerka.deal import Deal, deal_piles
from mizerka.record import read
from mizerka.rules import OPTIONS_HELP, STANDARD, VARIANTS

RECORDS = Path(__file__).parent / "data" / "records"


def invoke(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input)


# -- the group -----------------------------------------------------------------------------------------------


def test_every_command_in_the_table_loads_and_is_listed() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for name, target in COMMANDS.items():
        assert re.search(rf"^  {name}\s", result.output, re.MULTILINE), name
        command = cli.get_command(click.Context(cli), name)
        assert isinstance(command, click.Command), target
    for name in ("play", "replay", "rules", "deal"):
        assert name in COMMANDS


def test_a_command_runs_without_importing_the_others() -> None:
    code = (
        "import sys; from mizerka.cli import main\n"
        "try:\n    main(['rules'])\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in sys.modules if m.startswith('mizerka.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.split("LOADED", 1)[1]
    assert "mizerka.terminal" not in loaded and "mizerka.bots" not in loaded and "mizerka.server" not in loaded


def test_an_unavailable_command_says_why_without_a_traceback() -> None:
    group = LazyGroup(
        name="demo",
        lazy_commands={"broken": "mizerka.no_such_module:command", "odd": "mizerka.cli:COMMANDS"},
    )
    runner = CliRunner()
    result = runner.invoke(group, ["broken"])
    assert result.exit_code == 1
    assert "the 'broken' command is not available: No module named 'mizerka.no_such_module'" in result.output
    result = runner.invoke(group, ["odd"])
    assert result.exit_code == 1 and "mizerka.cli:COMMANDS is not a click command" in result.output
    result = runner.invoke(group, ["--help"])
    assert result.exit_code == 0 and "(unavailable:" in result.output
    assert "Traceback" not in result.output


def test_unknown_command_and_python_dash_m() -> None:
    result = invoke("dance")
    assert result.exit_code == 2 and "No such command 'dance'" in result.output
    done = subprocess.run([sys.executable, "-m", "mizerka", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("mizerka, version ")


# -- rules ---------------------------------------------------------------------------------------------------


def test_rules_prints_the_summary_the_variants_and_their_sources() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    assert "forehand" in result.output and "Mizerka" in result.output and "18 deals" in result.output
    for name, rules in VARIANTS.items():
        assert name in result.output
        assert rules.source in result.output
    for option in OPTIONS_HELP:
        assert option in result.output


# -- deal ----------------------------------------------------------------------------------------------------


def parse_deal_output(text: str) -> tuple[dict[str, CardSet], list[str], CardSet]:
    """Read `mizerka deal --ascii` back: the hands by role, the talon's cards, forehand's first cards."""
    hands: dict[str, CardSet] = {}
    talon: list[str] = []
    first = CardSet()

    def grouped(body: str) -> CardSet:
        groups = re.findall(r"([SHDC]): ([^A-Z:]*?(?:[AKQJT2-9] ?)+)(?=\s{3}|$)", body.strip())
        return CardSet.from_str(" ".join(f"{s}:{''.join(r.split())}" for s, r in groups))

    for line in text.splitlines():
        if m := re.match(r"\s+seat \d (FH|MH|D):\s+(.*)$", line):
            hands[m.group(1)] = grouped(m.group(2))
        elif m := re.match(r"\s+talon, top first: (.*)$", line):
            talon = m.group(1).split()
        elif m := re.match(r"Forehand \(seat \d\) chooses holding: (.*)$", line):
            first = grouped(m.group(1))
    return hands, talon, first


def test_deal_prints_every_card_once_and_matches_the_engine() -> None:
    result = invoke("deal", "--seed", "7", "--ascii", "--dealer", "2")
    assert result.exit_code == 0, result.output
    hands, talon, first = parse_deal_output(result.output)
    assert sorted(hands) == ["D", "FH", "MH"] and all(len(h) == 13 for h in hands.values())
    everything = CardSet().union(*hands.values()) | CardSet.from_str(" ".join(talon))
    assert len(everything) == 52 and len(talon) == 13
    deal = Deal.random(7, dealer=2)
    assert first == deal.hand(deal.forehand) and first <= hands["FH"]
    piles = deal_piles(deal.deck, STANDARD.deal_pattern)
    assert talon == [str(CardSet([c])) for c in reversed(piles[2])]  # the top card first
    assert invoke("deal", "--seed", "7", "--ascii", "--dealer", "2").output == result.output  # reproducible


def test_deal_options_unicode_and_four_players() -> None:
    result = invoke("deal", "--seed", "1")
    assert result.exit_code == 0 and "♠" in result.output and "Deal with seed 1" in result.output
    result = invoke("deal", "--seed", "1", "--variant", "four-players", "--dealer", "3")
    assert result.exit_code == 0 and "seat 3 (sits out)" in result.output
    result = invoke("deal")
    assert result.exit_code == 0 and re.search(r"Deal with seed \d+", result.output)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "x"], "'x' is not a valid integer"),
        (["--seed", "-1"], "-1 is not in the range x>=0"),
        (["--dealer", "3"], "seat 3 is not at a 3-player table"),
        (["--variant", "standard,uses=many"], "invalid uses: 'many'"),
        (["--variant", "standard,uses=²"], "invalid uses: '²'"),
        (["--variant", "standard,quota_ordinary=7_0/5/1"], "invalid quota_ordinary: '7_0/5/1'"),
        (["--variant", "four-players,quota_ordinary=7/5"], "invalid quota_ordinary: '7/5'"),
    ],
)
def test_deal_rejects_bad_options(args: list[str], message: str) -> None:
    result = invoke("deal", *args)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


# -- replay --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*sorted(p.name for p in RECORDS.glob("*.mzn")), "standard-seed7.json"])
def test_replay_prints_each_deal_and_the_sheet(name: str) -> None:
    record = read(RECORDS / name)
    result = invoke("replay", str(RECORDS / name))
    assert result.exit_code == 0, result.output
    for r in record.results():
        assert re.search(rf"^deal +{r.deal_no}: {record.players[r.chooser]} chose {r.contract.label}",
                         result.output, re.MULTILINE)
    assert "player  ♣  ♦  ♥  ♠  NT  MZ  total" in result.output
    if record.is_over():
        winners = " and ".join(record.players[s] for s in record.outcome().winners)
        assert f"Winner: {winners}" in result.output
    else:
        assert "the match is not over" in result.output


def test_replay_json_gives_the_scores() -> None:
    record = read(RECORDS / "standard-seed7.mzn")
    result = invoke("replay", "--json", str(RECORDS / "standard-seed7.mzn"))
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["totals"] == list(record.totals)
    assert [d["scores"] for d in data["deals"]] == [list(r.scores) for r in record.results()]
    assert data["complete"] is True and data["winners"] == list(record.outcome().winners)
    assert all(sum(d["scores"]) == 0 for d in data["deals"])


def test_replay_rejects_bad_files_with_exit_code_2(tmp_path: Path) -> None:
    text = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8")
    tampered = tmp_path / "tampered.mzn"
    # Claim a different score for the first deal: the replay must notice.
    first_scores = re.search(r'^\[Scores "([^"]*)"\]', text, re.MULTILINE)
    assert first_scores is not None
    tampered.write_text(text.replace(first_scores.group(0), '[Scores "9 9 9"]', 1), encoding="utf-8")
    garbage = tmp_path / "garbage.mzn"
    garbage.write_text("this is not a record\n", encoding="utf-8")
    binary = tmp_path / "binary.mzn"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    for path in (tampered, garbage, binary, tmp_path / "missing.mzn", tmp_path):
        result = invoke("replay", str(path))
        assert result.exit_code == 2, (path, result.output)
        assert "Error:" in result.output and "Traceback" not in result.output


# -- an output that cannot be written; deal's first dealer -----------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_the_output_is_a_message_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mizerka", "deal", "--seed", "1"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "cannot write the output" in done.stderr


def run_with_closed(fd: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``mizerka ARGS`` run with file descriptor *fd* closed (``<&-`` for 0, ``>&-`` for 1): Python then starts with
    ``sys.stdin`` or ``sys.stdout`` set to None.  Whatever is still open is captured."""
    return subprocess.run([sys.executable, "-m", "mizerka", *args], preexec_fn=lambda: os.close(fd),
                          stdin=None if fd == 0 else subprocess.DEVNULL,
                          stdout=None if fd == 1 else subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.parametrize("args", [("deal", "--seed", "1"), ("rules",), ("play", "--plain", "--seed", "1")])
def test_a_closed_output_is_refused_not_ignored(args: tuple[str, ...]) -> None:
    """It printed nothing and exited 0 (``deal``, ``rules``), or ended in a traceback (``play``)."""
    done = run_with_closed(1, *args)
    assert done.returncode == 1, done.stderr
    assert done.stderr == "Error: cannot write the output: the standard output is closed\n"


def test_a_closed_input_reads_as_an_empty_one() -> None:
    """``mizerka play <&-`` ended in a traceback (``'NoneType' object has no attribute 'isatty'``); it now
    ends as at the end of its answers, exactly as with ``< /dev/null``."""
    closed = run_with_closed(0, "play", "--seed", "1")
    empty = subprocess.run([sys.executable, "-m", "mizerka", "play", "--seed", "1"], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=120)
    assert "Traceback" not in closed.stderr
    assert (closed.returncode, closed.stdout, closed.stderr) == (empty.returncode, empty.stdout, empty.stderr)
    assert "Input ended" in closed.stdout + closed.stderr


def test_deal_deals_from_the_variants_first_dealer_by_default() -> None:
    result = invoke("deal", "--seed", "1", "--variant", "standard,first_dealer=1")
    assert result.exit_code == 0, result.output
    assert "dealer seat 1" in result.output.splitlines()[0]
    result = invoke("deal", "--seed", "1", "--variant", "standard,first_dealer=1", "--dealer", "2")
    assert "dealer seat 2" in result.output.splitlines()[0]
    assert "dealer seat 0" in invoke("deal", "--seed", "1").output.splitlines()[0]


@pytest.mark.parametrize("args", [
    ("play", "--bot-delay", "nan"),
    ("serve", "--request-timeout", "nan"),
    ("serve", "--dd-busy-rate", "inf"),
    ("serve", "--grace", "-nan"),
])
def test_a_number_option_refuses_nan_and_infinity(args: tuple[str, ...]) -> None:
    """click's FloatRange lets ``nan`` through every range (and ``inf`` through one without a maximum): a server
    started with ``--request-timeout nan`` then answered no HTTP request at all."""
    if args[0] == "serve":
        pytest.importorskip("uvicorn", reason="mizerka serve needs the server extra (CI installs it)")
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{args[1]}': '{args[2]}' is not a finite number." in result.output


@pytest.mark.parametrize("encoding", ["cp1252", "utf-8"])
def test_json_output_keeps_every_name_whatever_the_outputs_encoding(tmp_path: Path, encoding: str) -> None:
    """An output that cannot encode a name (cp1252: Windows, a redirected file) printed ``"?ucja"`` in ``--json``:
    output for programs lost the name.  It now gets ``\\u`` escapes there, and the characters themselves where
    the output takes them."""
    text = (RECORDS / "standard-seed7.mzn").read_text(encoding="utf-8").replace('"Bolek"', '"Łucja"')
    record = tmp_path / "names.mzn"
    record.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mizerka", "replay", "--json", str(record)], capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": encoding}, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode(encoding)
    assert json.loads(out)["players"][1] == "Łucja"
    assert ("\\u0141ucja" in out) == (encoding == "cp1252")


def test_an_empty_variant_is_refused() -> None:
    """``--variant "$V"`` with V unset meant some variant; it was silently the standard one."""
    result = invoke("deal", "--seed", "1", "--variant", " ")
    assert result.exit_code == 2 and "give a variant" in result.output and "Traceback" not in result.output


def test_replay_names_the_deal_in_progress() -> None:
    """A record written during a deal (``mizerka play --record`` keeps finished deals only, a server's record or an
    edited one may not) listed its finished deals and said nothing of the one in progress."""
    result = invoke("replay", str(RECORDS / "partial.mzn"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = lines.index("deal  3: in progress, no-trump, 8 tricks played and 2 cards of the next (not scored)")
    assert lines[at - 1].startswith("deal  2: ") and lines[at + 1].startswith("(the match is not over")
