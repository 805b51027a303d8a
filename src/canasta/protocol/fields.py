"""Decoding JSON text and reading typed fields, with wire errors for anything out of place."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from canasta.protocol.errors import ErrorCode, ProtocolError

REQUIRED: Any = object()
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_object(raw: str | bytes, limit: int) -> dict[str, Any]:
    """A JSON object from text of at most `limit` bytes, every text in it valid Unicode."""
    obj = decode_json_object(raw, limit)
    check_text(obj)
    return obj


def decode_json_object(raw: str | bytes, limit: int) -> dict[str, Any]:
    """A JSON object from text of at most `limit` bytes (its texts not checked: see `check_text`)."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode())
    if size > limit:
        raise ProtocolError(ErrorCode.TOO_LARGE, limit=limit)
    try:
        obj = json.loads(raw, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON) from None
    if not isinstance(obj, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "expected a JSON object")
    return obj


def encodable(value: Any) -> bool:
    """Whether every text in a decoded JSON value (keys too) can be sent as UTF-8: JSON's
    escapes can spell lone UTF-16 surrogates (`"\\ud800"`), which no UTF-8 text holds."""
    if isinstance(value, str):
        return not _SURROGATE.search(value)
    if isinstance(value, list):
        return all(encodable(item) for item in value)
    if isinstance(value, dict):
        return all(encodable(key) and encodable(item) for key, item in value.items())
    return True


def check_text(obj: Mapping[str, Any]) -> None:
    """Refuse a message holding text that is not valid Unicode (a lone surrogate), naming the
    top-level field it is in."""
    for key, value in obj.items():
        if not encodable(key):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a field name is not valid Unicode")
        if not encodable(value):
            raise bad(key, "text must be valid Unicode (it holds a lone surrogate)")


def _get(obj: Mapping[str, Any], key: str, default: Any) -> Any:
    if key in obj and obj[key] is not None:
        return obj[key]
    if default is REQUIRED:
        raise ProtocolError(ErrorCode.MISSING_FIELD, field=key)
    return default


def bad(key: str, detail: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_FIELD, f"{key}: {detail}", field=key)


def get_int(obj: Mapping[str, Any], key: str, default: Any = REQUIRED, lo: int = 0, hi: int = 2**53) -> Any:
    value = _get(obj, key, default)
    if value is default:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise bad(key, f"expected an integer from {lo} to {hi}")
    return value


def get_number(obj: Mapping[str, Any], key: str, default: Any, lo: float, hi: float) -> Any:
    value = _get(obj, key, default)
    if value is default:
        return value if value is None else float(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise bad(key, "expected a number")
    if not lo <= value <= hi:
        raise bad(key, f"expected a number from {lo} to {hi}")
    return float(value)


def get_bool(obj: Mapping[str, Any], key: str, default: Any = REQUIRED) -> Any:
    value = _get(obj, key, default)
    if value is not default and not isinstance(value, bool):
        raise bad(key, "expected true or false")
    return value


def get_str(obj: Mapping[str, Any], key: str, default: Any = REQUIRED, max_len: int = 100) -> Any:
    value = _get(obj, key, default)
    if value is default:
        return value
    if not isinstance(value, str) or len(value) > max_len:
        raise bad(key, f"expected a string of at most {max_len} characters")
    return value


def get_text(obj: Mapping[str, Any], key: str, max_len: int) -> str:
    """Required human-written text: stripped, no control characters, and at least one visible
    character (a letter, digit, punctuation or symbol that is not blank)."""
    value = get_str(obj, key, max_len=max_len).strip()
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value) or not any(map(_visible, value)):
        raise bad(key, "expected visible text")
    return str(value)


# letters and symbols that show nothing (Hangul fillers, the blank Braille pattern)
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK


def get_object(obj: Mapping[str, Any], key: str, default: Any = REQUIRED) -> Any:
    value = _get(obj, key, default)
    if value is not default and not isinstance(value, dict):
        raise bad(key, "expected a JSON object")
    return value
