"""``python -m physgen``: the same as the ``physgen`` command."""

import sys

from .cli import main

sys.exit(main())
