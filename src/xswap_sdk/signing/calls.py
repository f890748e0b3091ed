"""Contract calls as plain data: what to send to which contract, ready for web3 or the
relayer.

Every builder of the gateway contracts' calls (`xswap_sdk.signing.gateway_wallet`,
`xswap_sdk.signing.eip3009`) returns a `ContractCall`, or a `ViewCall` for a
read. They do no I/O and need no web3: send a call with web3
(``web3.eth.send_transaction(call.to_transaction())``), hand it to the relayer
(``relayer.relay(**call.relay_arguments())``), or read a view with
``call.decode(web3.eth.call(call.to_call()))``.

Some functions act on ``msg.sender``'s own balance (``initiateWithdrawal``,
``withdraw``, ``addDelegate``, ``removeDelegate``): their call names the account that
must send it (`ContractCall.sender`) and refuses to be relayed, since the relayer's
account would be ``msg.sender`` then.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import InvalidInputError

__all__ = ["ContractCall", "ViewCall"]

_WORD = 32


class ContractCall(BaseModel):
    """One transaction to a contract, built by the SDK from the caller's values and
    the pinned registry.

    Attributes:
        to: the contract (from `xswap_sdk.registry`).
        data: the calldata, ``0x`` hex (left out of ``repr``: it may hold a signature).
        value: native value to send: always 0, no gateway function is payable.
        chain_id: the chain to send it on.
        function: the Solidity signature called, e.g. ``"withdraw(address)"``.
        sender: the account that must send it, for a function that acts on
            ``msg.sender``'s own balance; ``None`` when anyone may send it (a relayer
            included).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    to: str
    data: str = Field(repr=False)
    value: int = 0
    chain_id: int
    function: str
    sender: str | None = None

    def to_transaction(self) -> dict[str, Any]:
        """The web3 transaction fields: ``to``, ``data``, ``value``, ``chainId``, and
        ``from`` when the call must come from `sender`. Add gas and fees (or let web3
        fill them in) and send."""
        fields: dict[str, Any] = {
            "to": self.to,
            "data": self.data,
            "value": self.value,
            "chainId": self.chain_id,
        }
        if self.sender is not None:
            fields["from"] = self.sender
        return fields

    def relay_arguments(self) -> dict[str, Any]:
        """The arguments of ``RelayerClient.relay``: ``relayer.relay(**call.relay_arguments())``.

        Raises:
            InvalidInputError: the call acts on ``msg.sender``'s balance (`sender` is
                set): relayed, it would act on the relayer's account instead.
        """
        if self.sender is not None:
            raise InvalidInputError(
                "call",
                f"must be sent by {self.sender} itself: {self.function} acts on msg.sender's "
                "own balance, so through a relayer it would act on the relayer's account",
            )
        return {"chain_id": self.chain_id, "to": self.to, "call_data": self.data}


class ViewCall(ContractCall):
    """A read of a view function; ``web3.eth.call(call.to_call())`` answers it and
    `decode` reads the answer.

    Attributes:
        returns: the one value the function returns: ``uint256`` or ``bool``.
    """

    returns: Literal["uint256", "bool"] = "uint256"

    def to_call(self) -> dict[str, Any]:
        """The ``eth_call`` fields: ``to`` and ``data``."""
        return {"to": self.to, "data": self.data}

    def decode(self, result: bytes | str) -> int:
        """Read the answer of ``eth_call``: the returned ``uint256`` (or ``bool`` as 0
        or 1).

        Args:
            result: the raw return data, as bytes or ``0x`` hex.

        Returns:
            The value.

        Raises:
            InvalidInputError: not one 32-byte word, or a ``bool`` other than 0 or 1.
        """
        if isinstance(result, str):
            text = result[2:] if result[:2] in ("0x", "0X") else result
            try:
                raw = bytes.fromhex(text)
            except ValueError:
                raise InvalidInputError("result", "must be hex return data") from None
        elif isinstance(result, bytes | bytearray):
            raw = bytes(result)
        else:
            raise InvalidInputError("result", "must be bytes or a 0x hex string")
        if len(raw) != _WORD:
            raise InvalidInputError(
                "result",
                f"must be one 32-byte word (an empty answer means no contract at {self.to})",
            )
        value = int.from_bytes(raw, "big")
        if self.returns == "bool" and value not in (0, 1):
            raise InvalidInputError("result", "must be 0 or 1 for a bool")
        return value
