"""The full-screen terminal game (Textual): ``mizerka play``.

:mod:`mizerka.tui.model` holds the table (the match, the computer players, undo and hints) and imports only the
core and the bots; :mod:`mizerka.tui.app` draws it with Textual (the ``tui`` extra).
"""
