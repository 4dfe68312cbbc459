"""``python -m graphgate.cli``: the same commands as the ``graphgate`` script."""

from graphgate.cli import main

# Guarded: a spawned worker process imports the main module again, and must not run the CLI.
if __name__ == "__main__":
    main()
