"""The server's texts in the languages beyond English and Russian (Spanish, Portuguese as
spoken in Brazil, German), one module a language, merged into the English and Russian tables
of `errors`, `refusal_texts`, `rule_reasons`, `hint_reasons`, `chat` and the catalogue."""

from __future__ import annotations

from collections.abc import Mapping

from canasta.protocol.translations import de, es, pt

ERRORS: Mapping[str, Mapping[str, str]] = {"es": es.ERRORS, "pt": pt.ERRORS, "de": de.ERRORS}
REFUSALS: Mapping[str, Mapping[str, str]] = {"es": es.REFUSALS, "pt": pt.REFUSALS, "de": de.REFUSALS}
RANKS: Mapping[str, Mapping[str, str]] = {"es": es.RANKS, "pt": pt.RANKS, "de": de.RANKS}
RANK: Mapping[str, Mapping[str, str]] = {"es": es.RANK, "pt": pt.RANK, "de": de.RANK}
METHODS: Mapping[str, Mapping[str, str]] = {"es": es.METHODS, "pt": pt.METHODS, "de": de.METHODS}
FALLBACK: Mapping[str, str] = {"es": es.FALLBACK, "pt": pt.FALLBACK, "de": de.FALLBACK}
JOKER: Mapping[str, str] = {"es": es.JOKER, "pt": pt.JOKER, "de": de.JOKER}
HINTS: Mapping[str, Mapping[str, str]] = {"es": es.HINTS, "pt": pt.HINTS, "de": de.HINTS}
PHRASES: Mapping[str, Mapping[str, str]] = {"es": es.PHRASES, "pt": pt.PHRASES, "de": de.PHRASES}
DESCRIPTIONS: Mapping[str, Mapping[str, str]] = {
    "es": es.DESCRIPTIONS,
    "pt": pt.DESCRIPTIONS,
    "de": de.DESCRIPTIONS,
}
