"""``python -m mizerka``: the same as the ``mizerka`` command."""

from mizerka.cli import main

if __name__ == "__main__":
    main()
