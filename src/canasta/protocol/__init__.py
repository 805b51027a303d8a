"""The wire protocol: client messages (parsed and validated), server messages, error codes.

Documented in `docs/protocol.md`. Every error a client can receive is an `ErrorCode` with a
message in English and Russian.
"""

from canasta.protocol.client import (
    ActionRequest,
    ChatRequest,
    ClientMessage,
    Hello,
    HintRequest,
    JoinRequest,
    LeaveRequest,
    NextDealRequest,
    RematchRequest,
    parse_client_message,
    parse_join,
)
from canasta.protocol.errors import LANGUAGES, ErrorCode, ProtocolError
from canasta.protocol.settings import HUMAN, TableSettings

__all__ = [
    "HUMAN",
    "LANGUAGES",
    "ActionRequest",
    "ChatRequest",
    "ClientMessage",
    "ErrorCode",
    "Hello",
    "HintRequest",
    "JoinRequest",
    "LeaveRequest",
    "NextDealRequest",
    "ProtocolError",
    "RematchRequest",
    "TableSettings",
    "parse_client_message",
    "parse_join",
]
