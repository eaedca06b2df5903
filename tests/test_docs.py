"""The README and the docs followed word for word.

Each test keeps the pages from drifting away from the code: the examples print exactly what the pages show (to the
space: the suite's own doctest run normalises whitespace, so a score sheet's columns could move unseen), the Python
blocks that are not doctests run, every command line names options its command has, every link between the pages
leads to a file and a heading that exist, and docs/protocol.md names every error code the server raises (the REST
codes of a new table and a join among the REST-only ones).
"""

from __future__ import annotations

import ast
import doctest
import re
import shlex
from pathlib import Path

import click
import pytest

from mizerka.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _fenced(path: Path, language: str | None = None) -> list[str]:
    """The fenced blocks of a page (of one info string, if given)."""
    text = path.read_text(encoding="utf-8")
    return [m.group(2) for m in FENCE.finditer(text) if language is None or m.group(1).strip() == language]


# -- the examples print exactly what the pages show ------------------------------------------------------------------

DOCTEST_PAGES = [p for p in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
                 if re.search(r"^>>> ", p.read_text(encoding="utf-8"), re.MULTILINE)
                 and p.name != "envs.md"]  # it needs OpenSpiel: tests/test_envs_docs.py runs it, or says it skips


@pytest.mark.parametrize("page", DOCTEST_PAGES, ids=_page_id)
def test_doc_examples_print_exactly_what_the_page_shows(page: Path) -> None:
    """docs/scoresheet.md showed the grid's totals and the table's score columns one space to the right of where
    ``grid()`` and ``table()`` print them; the suite's doctests (NORMALIZE_WHITESPACE) could not see it."""
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False,
                              report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{_page_id(page)}: {result.failed} example(s) print something else (see above)"


# -- the Python blocks that are no doctests run ----------------------------------------------------------------------


@pytest.mark.parametrize("page", [DOCS / "record.md", DOCS / "bots.md"], ids=_page_id)
def test_python_blocks_run(page: Path) -> None:
    """The first ``python`` block of docs/record.md and docs/bots.md is a script a reader pastes as it is."""
    block = _fenced(page, "python")[0]
    exec(compile(block, str(page), "exec"), {"__name__": "__doc_example__"})


# -- every command line names options its command has ----------------------------------------------------------------


def _command_lines(path: Path) -> list[str]:
    """The ``mizerka COMMAND ...`` lines of a page: in its shell blocks and in its inline code."""
    lines: list[str] = []
    text = path.read_text(encoding="utf-8")
    for block in _fenced(path, ""):  # shell blocks have no info string; python and json blocks are not read
        lines.extend(block.splitlines())
    lines.extend(" ".join(span.split()) for span in re.findall(r"`([^`]+)`", FENCE.sub("", text)))  # may wrap
    found = []
    for line in lines:
        # "$ " (a prompt) and "NAME=value " (an environment variable) may come first
        match = re.match(r"(?:\$ )?(?:[A-Z_]+=\S* )*(mizerka [a-z].*)$", line.split(" #")[0].strip())
        if match:
            found.append(match.group(1).strip())
    return found


def _options(command: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        names.update(param.opts)
        names.update(param.secondary_opts)
    return names


CASES = [(page, line) for page in PAGES for line in _command_lines(page)]


@pytest.mark.parametrize(("page", "line"), CASES, ids=[f"{_page_id(p)}: {line[:60]}" for p, line in CASES])
def test_command_lines_name_real_commands_and_options(page: Path, line: str) -> None:
    words = line.split()
    name = words[1]
    context = click.Context(cli)
    command = cli.get_command(context, name)
    assert command is not None, f"{_page_id(page)}: no command {name!r} in {line!r}"
    try:
        tokens = shlex.split(line)
    except ValueError:  # an ellipsis or a quote left open in prose: the words will do
        tokens = words
    options = {part for token in tokens for part in re.findall(r"(?<![\w-])--[a-z][a-z-]*", token)}
    unknown = sorted(options - _options(command))
    assert not unknown, f"{_page_id(page)}: `mizerka {name}` has no option {', '.join(unknown)} (in {line!r})"


def test_the_command_lines_are_found() -> None:
    """The check above reads the README's command block (a guard against a parser that finds nothing)."""
    readme = _command_lines(ROOT / "README.md")
    assert "mizerka deal --seed 7 --dealer 2" in readme
    assert len(readme) >= 15


# -- links between the pages -----------------------------------------------------------------------------------------


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, backticks and punctuation dropped, spaces as hyphens."""
    text = heading.strip().lower().replace("`", "")
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_anchor(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_links_lead_to_pages_and_headings_that_exist(page: Path) -> None:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{_page_id(page)}: {broken}"


# -- the server's error codes in docs/protocol.md --------------------------------------------------------------------


def _server_error_codes() -> dict[str, list[str]]:
    """Every error code the server's code raises (TableError, ScorepadError, ProtocolError) or answers (_error),
    with where: read from the source, so that the test needs no server extra."""
    codes: dict[str, list[str]] = {}
    for path in sorted((ROOT / "src" / "mizerka" / "server").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            position = {"TableError": 0, "ScorepadError": 0, "ProtocolError": 0, "_error": 1}.get(str(name))
            if position is None or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.setdefault(code.value, []).append(f"{path.name}:{node.lineno}")
    return codes


def test_protocol_doc_names_every_error_code_the_server_raises() -> None:
    """bad_variant, bad_seats and bad_seat (POST /api/tables, a join) were missing from docs/protocol.md."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes = _server_error_codes()
    assert {"bad_variant", "bad_seats", "bad_seat", "bad_deal", "internal"} <= set(codes)  # the scan finds them
    missing = {code: where for code, where in codes.items() if f"`{code}`" not in doc}
    assert not missing, f"error codes the server raises that docs/protocol.md never names: {missing}"


def _websocket_error_codes() -> set[str]:
    """The keys of ``mizerka.server.protocol.ERROR_CODES`` (what ``GET /api/meta`` lists), read from the source."""
    tree = ast.parse((ROOT / "src" / "mizerka" / "server" / "protocol.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "ERROR_CODES":
            assert isinstance(node.value, ast.Dict)
            return {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
    raise AssertionError("no ERROR_CODES in protocol.py")


def test_every_error_code_is_the_websockets_or_a_rest_only_one() -> None:
    """``profile_needed`` (a rated rematch) and ``corrupt`` (a hello at a damaged stored table) reach the websocket
    but were in neither list: ``GET /api/meta``'s ``error_codes`` left them out, and the page called them REST
    codes only."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    rest_only = doc[doc.index("The REST-only codes"):]
    rest_only = set(re.findall(r"`([a-z_]+)`", rest_only[:rest_only.index("error_codes")]))
    websocket = _websocket_error_codes()
    assert {"bad_json", "not_your_turn", "profile_needed", "corrupt"} <= websocket  # the reading finds them
    unlisted = {code: where for code, where in _server_error_codes().items()
                if code not in websocket and code not in rest_only}
    assert not unlisted, f"error codes neither in ERROR_CODES nor among the REST-only ones: {unlisted}"


def test_the_rest_codes_of_a_new_table_and_a_join_are_among_the_rest_only_codes() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    rest_only = doc[doc.index("The REST-only codes"):]
    rest_only = rest_only[:rest_only.index("error_codes")]
    for code in ("bad_variant", "bad_seats", "bad_seat"):
        assert f"`{code}`" in rest_only
