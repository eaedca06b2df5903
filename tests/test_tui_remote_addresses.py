"""Server addresses the terminal client cannot use (``mizerka play --connect``, ``mizerka tables``): the reason
named, a usage error, never a traceback.

An invite link that is no address (a bracket that does not close, a space, a user name and password, which the seat
book would have kept) is refused with the reason; a malformed host name (``x..y``, a label over 63 characters) is a
bad address, not an answer that "is not JSON" (urllib's IDNA encoding raised a ValueError, caught as the JSON
decoder's); a port where another service answers something that is no HTTP is no mizerka server.
"""

from __future__ import annotations

import contextlib
import urllib.parse

import pytest
from click.testing import CliRunner

from mizerka.cli import cli
from mizerka.tui.remote import RemoteError, _call_server, parse_invite, parse_server


@pytest.mark.parametrize("url", ["http://[::1/?table=x", "http://[zz]/?table=x", "http://h/a b/?table=x",
                                 "http://user:secret@h/?table=x"])
def test_a_link_that_is_no_address_is_refused(url: str) -> None:
    """A bracketed address that does not close, a space, a user name and password: each refused with the reason
    (the first two were a traceback; a password would have been kept in the seat book)."""
    with pytest.raises(RemoteError, match="not an invite link") as refused:
        parse_invite(url)
    assert "secret" not in str(refused.value)


@pytest.mark.parametrize("host", ["x..y", "a" * 64 + ".org", ".x"])
def test_a_malformed_host_name_is_a_bad_address(host: str) -> None:
    """``mizerka tables http://x..y`` (or a label over 63 characters) was "did not answer like a mizerka server (no
    JSON)": urllib's IDNA encoding raised UnicodeError, a ValueError, caught as the JSON decoder's.  It is a bad
    address, named, and a usage error like the others."""
    with pytest.raises(RemoteError, match=f"names the server {host!r}, which is no host name"):
        parse_server(f"http://{host}")
    with pytest.raises(RemoteError, match="which is no host name"):
        parse_invite(f"http://{host}/?table=abc")
    result = CliRunner().invoke(cli, ["tables", f"http://{host}"])
    assert result.exit_code == 2 and "no host name" in result.output and "JSON" not in result.output, result.output
    result = CliRunner().invoke(cli, ["play", "--plain", "--connect", f"http://{host}/?table=abc"], input="")
    assert result.exit_code == 2 and "no host name" in result.output, result.output


def test_a_server_call_to_an_unusable_address_is_not_called_a_bad_answer() -> None:
    """The request itself failing with a ValueError (an address IDNA cannot encode) was reported as an answer that
    is not JSON; only the answer's decoding is that."""
    with pytest.raises(RemoteError) as info:
        _call_server("http://x..y", "/api/tables", None, 1.0)
    assert "cannot reach the server at http://x..y" in str(info.value) and "JSON" not in str(info.value)


def test_a_port_that_does_not_answer_in_http_is_no_mizerka_server() -> None:
    """``mizerka tables http://127.0.0.1:PORT`` where another service answers a line that is no HTTP status ended in
    a traceback (``http.client.BadStatusLine``, which is neither an ``OSError`` nor a ``ValueError``)."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]

    def answer_junk() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                with conn:
                    conn.recv(4096)
                    conn.sendall(b"HELLO THIS IS NOT HTTP\r\n\r\n")

    answering = threading.Thread(target=answer_junk, daemon=True)
    answering.start()
    try:
        result = CliRunner().invoke(cli, ["tables", f"http://127.0.0.1:{port}"])
    finally:  # shutdown wakes the thread blocked in accept (close alone does not), and it is waited for
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        answering.join(timeout=5)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result  # click's exit, no traceback
    assert "did not answer like a mizerka server (not HTTP: BadStatusLine)" in result.output, result.output


@pytest.mark.parametrize("table", ["../../etc", "a/b", "a b", "x" * 65, "tablé", "a%2Fb"])
def test_a_table_id_no_server_makes_is_refused(table: str) -> None:
    """``?table=../../etc`` went on to the server as a path and reached another endpoint (``method POST is not
    allowed``); only the ids a server makes are taken."""
    with pytest.raises(RemoteError, match="is not one a server makes"):
        parse_invite(f"http://127.0.0.1:8000/?table={urllib.parse.quote(table)}")


def test_the_clients_table_ids_are_the_servers() -> None:
    pytest.importorskip("fastapi", reason="the server extra (CI installs it)")
    from mizerka.server.hub import TABLE_ID
    from mizerka.tui.remote import INVITE_TABLE_ID

    assert INVITE_TABLE_ID.pattern == TABLE_ID.pattern
    assert parse_invite("http://127.0.0.1:8000/?table=Vq3x-Y_9").table == "Vq3x-Y_9"
