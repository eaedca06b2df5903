"""A private table made in the lobby for friends, in real chromium against the real server.

The lobby says empty seats can be given to bots: the private table can be made for one friend and a bot, without
hints and without spectators; the table has those seats and options, and waits for the friend only.  The friend
joins with the link, and the match starts.
"""

from __future__ import annotations

import re
from typing import Any

from web_helpers import wait_for_table


def test_a_private_table_with_a_bot_and_options(new_page: Any, web_server: Any) -> None:
    """The lobby says empty seats can be given to bots: the private table can be made for one friend and a bot,
    without hints and without spectators, and then waits for the friend only."""
    page = new_page()
    page.goto(web_server.url + "/")
    page.select_option("#private-opponents", "1")
    page.get_by_label("Hints").uncheck()
    page.get_by_label("Spectators may watch").uncheck()
    page.click("#create-table")
    page.wait_for_url(re.compile(r"\?table="))
    v = wait_for_table(page)
    kinds = [p["kind"] for p in v["players"]]
    assert sorted(kinds) == ["bot", "human", "human"], v["players"]
    assert v["options"]["hints"] is False and v["options"]["spectators"] is False
    assert v["status"] == "waiting"
    # a friend joins with the link, and the match starts
    friend = new_page()
    friend.goto(f"{web_server.url}/?table={v['table']}")
    friend.click("#join-table")
    wait_for_table(friend)
    page.wait_for_function("() => window.mizerkaDebug.view().status === 'playing'")
