"""``python -m xswap_sdk._cli``: the ``xswap`` command, without the console script."""

import sys

from . import main

sys.exit(main())
