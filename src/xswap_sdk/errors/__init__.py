"""One exception tree for everything the SDK raises.

```text
XSwapError
├── InvalidInputError (also ValueError)    bad argument, raised before any I/O
│   ├── MissingCredentialsError            no API key / JWT / signer where one is needed
│   ├── InsufficientBalanceError           gateway balances cannot cover an order
│   └── QuoteRejectedError                 a quote is expired, too dear, or incomplete
├── APIError                               something went wrong talking to a service
│   ├── APIStatusError                     HTTP 4xx/5xx
│   │   ├── BadRequestError (400)
│   │   │   └── InsufficientMaxFeeError    Circle Gateway: maxFee below its floor
│   │   ├── AuthenticationError (401)
│   │   ├── PaymentRequiredError (402)
│   │   │   ├── PaymentNotAcceptedError    402 again after paying (x402); outcome unknown
│   │   │   └── PaymentNotDueError         402 on a call the SDK never pays (a read)
│   │   ├── PermissionDeniedError (403)
│   │   ├── NotFoundError (404)
│   │   ├── ConflictError (409)
│   │   ├── UnprocessableEntityError (422)
│   │   ├── RateLimitError (429)
│   │   └── InternalServerError (5xx)
│   ├── APIConnectionError                 the request did not get an HTTP answer
│   │   └── APITimeoutError
│   │       └── DeadlineExceededError      the call's total deadline passed
│   ├── RedirectError                      HTTP 3xx: never followed; names the target origin
│   ├── EnvelopeError                      HTTP 2xx, but the envelope says failure
│   ├── PaginationError                    a paged list repeats itself or never ends
│   └── ResponseValidationError            a body that does not fit its model
│       ├── ResponseTooLargeError          a body past the size cap; reading stopped there
│       └── ResponseTooDeepError           JSON nested past the depth limit; never parsed
├── TerminalStateError                     a watched operation ended in failure
│   ├── RelayFailedError                   relayer status FAILED
│   ├── SwapFailedError                    a swap or gasless swap ended failed
│   └── TransferFailedError                a Circle Gateway transfer failed or expired
├── WaitTimeoutError                       polling ran out of time; may still land
├── LoginError                             wallet-signature login failed
│   └── LoginRateLimitError                the SDK's own cap (3 logins a minute per signer
│                                          and host) refused it; .retry_after
├── SigningError                           a signature could not be made or checked
│   ├── UnsafePayloadError                 what a service asked us to sign disagrees with
│   │                                      the caller's request or a pinned fact
│   └── PolicyRefusedError                 the caller's signing policy refused a signature
├── WebhookSignatureError                  a webhook whose signature does not verify
├── JournalError                           the journal could not be written or read
│   ├── JourneyBusyError                   another run holds the journey's lease
│   ├── JourneyTamperedError               a journey's MAC does not verify: refused
│   └── RestartRequiredError               resuming would sign something new
├── SimulationError                        a transaction's simulation reverted or moved
│                                          assets the call does not mean; nothing sent
└── MissingDependencyError (also ImportError)  an optional extra is not installed
```

Every message is readable on its own and never holds a secret: no API key, JWT,
signature or private key is put into an error, and request query strings are left out
because they can carry user data.
"""

from __future__ import annotations

from ._api import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    DeadlineExceededError,
    EnvelopeError,
    PaginationError,
    RedirectError,
    RequestInfo,
    ResponseTooDeepError,
    ResponseTooLargeError,
    ResponseValidationError,
)
from ._base import (
    InsufficientBalanceError,
    InvalidInputError,
    MissingCredentialsError,
    MissingDependencyError,
    QuoteRejectedError,
    XSwapError,
)
from ._journal import JournalError, JourneyBusyError, JourneyTamperedError, RestartRequiredError
from ._signing import (
    LoginError,
    LoginRateLimitError,
    PolicyRefusedError,
    SigningError,
    SimulationError,
    UnsafePayloadError,
    WebhookSignatureError,
)
from ._status import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InsufficientMaxFeeError,
    InternalServerError,
    NotFoundError,
    PaymentNotAcceptedError,
    PaymentNotDueError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
)
from ._terminal import (
    RelayFailedError,
    SwapFailedError,
    TerminalStateError,
    TransferFailedError,
    WaitTimeoutError,
)

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DeadlineExceededError",
    "EnvelopeError",
    "InsufficientBalanceError",
    "InsufficientMaxFeeError",
    "InternalServerError",
    "InvalidInputError",
    "JournalError",
    "JourneyBusyError",
    "JourneyTamperedError",
    "LoginError",
    "LoginRateLimitError",
    "MissingCredentialsError",
    "MissingDependencyError",
    "NotFoundError",
    "PaginationError",
    "PaymentNotAcceptedError",
    "PaymentNotDueError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PolicyRefusedError",
    "QuoteRejectedError",
    "RateLimitError",
    "RedirectError",
    "RelayFailedError",
    "RequestInfo",
    "ResponseTooDeepError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "RestartRequiredError",
    "SigningError",
    "SimulationError",
    "SwapFailedError",
    "TerminalStateError",
    "TransferFailedError",
    "UnprocessableEntityError",
    "UnsafePayloadError",
    "WaitTimeoutError",
    "WebhookSignatureError",
    "XSwapError",
]

# Each family is written in a private module, but every class is named by its public
# home: a traceback says xswap_sdk.errors.APIError, and pickle finds it there.
for _name in __all__:
    globals()[_name].__module__ = __name__
del _name
