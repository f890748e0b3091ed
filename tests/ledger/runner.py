"""A worker process for the ledger tests: signs burn intents under
``Policy(max_per_day=CAP, ledger=$XSWAP_TEST_LEDGER)`` and prints how many were
admitted and refused, as JSON.

    python -m tests.ledger.runner VALUE COUNT CAP [START_AT]

The ledger comes from the environment, not the command line (a URL holds a password).
``START_AT`` (Unix seconds) makes racing workers begin together.
"""

from __future__ import annotations

import json
import os
import sys
import time

from xswap_sdk import errors
from xswap_sdk.policy import Policy, use_policy

from ..policy.support import one_intent


def main(argv: list[str]) -> int:
    value, count, cap = (int(arg) for arg in argv[:3])
    policy = Policy(max_per_day=cap, ledger=os.environ["XSWAP_TEST_LEDGER"])
    if len(argv) > 3:
        time.sleep(max(0.0, float(argv[3]) - time.time()))
    admitted = refused = 0
    with use_policy(policy):
        for _ in range(count):
            try:
                one_intent(value)
            except errors.PolicyRefusedError as exc:
                if exc.rule != "max_per_day":
                    raise
                refused += 1
            else:
                admitted += 1
    print(json.dumps({"admitted": admitted, "refused": refused}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
