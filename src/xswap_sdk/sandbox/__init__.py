"""An in-process emulator of the swap backend, the routing service, the relayer and
Circle Gateway's API.

`Sandbox` answers like the live services (their envelopes, error shapes and state
changes) with no account, key or network, so examples, notebooks and tests run
anywhere. Clients attach in-process through `httpx.MockTransport`;
``python -m xswap_sdk.sandbox`` serves the same emulator on localhost (needs the
``sandbox`` extra). See ``docs/sandbox.md``.
"""

from ._sandbox import BASE_URL, RecordedRequest, RequestLog, Sandbox
from .faults import Fault, Faults
from .flash import FlashService
from .gateway import GatewayService, GatewayTimings
from .relayer import RelayerService, RelayerTimings
from .routing import RoutingService

__all__ = [
    "BASE_URL",
    "Fault",
    "Faults",
    "FlashService",
    "GatewayService",
    "GatewayTimings",
    "RecordedRequest",
    "RelayerService",
    "RelayerTimings",
    "RequestLog",
    "RoutingService",
    "Sandbox",
]
