"""``python -m graphgate.cli``: the same commands as the ``graphgate`` script."""

from graphgate.cli import main

main()
