"""``xswap recover TRANSFER_ID --recipient ADDR``: mint a stuck Gateway transfer from
its id alone (`xswap_sdk.gateway.GatewayClient.recover_transfer`).

The transfer's destination chain is read from Gateway; the ``--rpc-url`` node serving
it (else ``XSWAP_RPC_URLS``) reads the minter and sends the mint, signed with
``XSWAP_PRIVATE_KEY`` (never a command-line argument: it would show in the process
list). Exit status 0 when minted now or already; 1 when the transfer expired or does
not exist; 2 for a wrong argument, a missing key or node; 3 (as for any answer the SDK
refuses) when the transfer does not pay the recipient or cannot be checked.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._base_client import env_signer
from ..errors import InvalidInputError
from ..journal import PRIVATE_KEY_ENV
from ..types import format_amount
from ._command import Command, ExitCode
from ._nodes import RPC_URLS_ENV, Nodes
from ._output import Output

__all__ = ["COMMAND"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``recover TRANSFER_ID --recipient ADDR [--rpc-url URL ...] [--testnet]``."""
    parser.add_argument("transfer_id", metavar="TRANSFER_ID", help="Gateway's transfer id")
    parser.add_argument(
        "--recipient",
        required=True,
        metavar="ADDR",
        help="who must receive it: a transfer paying anyone else is refused",
    )
    parser.add_argument(
        "--rpc-url",
        action="append",
        metavar="URL",
        help="a JSON-RPC node of the destination chain (repeatable; default: "
        f"${RPC_URLS_ENV}). https://, or http:// to this machine. Needs the web3 extra",
    )
    parser.add_argument("--testnet", action="store_true", help="Gateway's testnet API")
    parser.epilog = (
        f"The mint is signed with ${PRIVATE_KEY_ENV}. Nothing is signed unless every "
        "attested transfer pays ADDR in native USDC on its pinned destination chain. "
        "See docs/gateway.md."
    )


def run(args: argparse.Namespace, out: Output) -> int:
    """Read, check and mint the transfer; print what was done."""
    # lazy: the Gateway client, only for this command
    from ..gateway import GatewayClient

    signer = env_signer()
    if signer is None:
        raise InvalidInputError(PRIVATE_KEY_ENV, "required: the key that sends the mint")
    nodes = Nodes.from_arguments(args.rpc_url)
    with GatewayClient(testnet=args.testnet) as gateway:
        details = gateway.get_transfer(args.transfer_id)
        domain = details.destination_domain
        chain = None if domain is None else gateway.registry.by_domain(domain, testnet=args.testnet)
        found = None if chain is None else nodes.web3_for([chain.chain_id])
        if found is None:
            where = "an unknown chain" if chain is None else f"chain {chain.chain_id}"
            raise InvalidInputError(
                "--rpc-url", f"no node given serves the transfer's destination, {where}"
            )
        recovered = gateway.recover_transfer(
            args.transfer_id, recipient=args.recipient, web3=found[1], signer=signer
        )
    data: dict[str, Any] = recovered.model_dump(mode="json", exclude={"simulation"})
    amount = format_amount(recovered.value)
    if recovered.minted_already:
        text = f"{args.transfer_id}: minted already ({amount} to {recovered.recipient}"
        text += f", transaction {recovered.tx_hash})" if recovered.tx_hash else ")"
    else:
        text = (
            f"{args.transfer_id}: minted {amount} to {recovered.recipient} on chain "
            f"{recovered.chain_id} (transaction {recovered.tx_hash})"
        )
    out.result(data, text)
    return ExitCode.OK


FLAGS = {
    "transfer_id": "TRANSFER_ID",
    "recipient": "--recipient",
    "web3": "--rpc-url",
    "signer": PRIVATE_KEY_ENV,
}
"""The library's argument names as this command line says them."""

COMMAND = Command(
    "recover",
    "mint a stuck Gateway transfer from its id, once checked to pay the recipient",
    add_arguments,
    run,
    flags=FLAGS,
)
