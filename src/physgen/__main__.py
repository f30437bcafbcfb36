"""``python -m physgen``: the same as the ``physgen`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
