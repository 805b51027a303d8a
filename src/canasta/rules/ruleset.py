"""One configurable rule set, its presets and the validation of options (RULES.md section 2)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias, get_args

from canasta.rules.cards import Card
from canasta.rules.errors import InvalidActionError

VARIANTS: Final = ("classic", "modern-american", "online", "mendelev")

PLAYER_COUNTS: Final[Mapping[str, tuple[int, ...]]] = {
    "classic": (2, 3, 4, 5, 6),
    "modern-american": (4,),
    "online": (2, 4),
    "mendelev": (4,),
}

#: Every preset and player count (with the two 6-player layouts), as (variant, players, options).
CONFIGURATIONS: Final[tuple[tuple[str, int, Mapping[str, Any]], ...]] = (
    *((v, n, {}) for v in VARIANTS for n in PLAYER_COUNTS[v]),
    ("classic", 6, {"teams": 3}),
)


def configuration_label(variant: str, players: int, options: Mapping[str, Any]) -> str:
    """A configuration's name in tables, e.g. `classic 4p` or `classic 6p (3 teams)`."""
    return f"{variant} {players}p" + (" (3 teams)" if options.get("teams") == 3 else "")


DESCRIPTIONS: Final[Mapping[str, str]] = {
    "classic": "Classic partnership Canasta (the Official Laws), for 2 to 6 players.",
    "modern-american": "Modern American Canasta: 13 cards, special melds, two canastas to go out.",
    "online": "Online-site rules: wild canasta 2000, black threes in hand -100.",
    "mendelev": "Encyclopedia rules: top-card purchase to go out, canasta ranks block the pile.",
}

CLASSIC_MINIMUMS: Final = ((-(10**9), 15), (0, 50), (1500, 90), (3000, 120))
MODERN_MINIMUMS: Final = ((-(10**9), 125), (3000, 155), (5000, 180))

# The values of each option that is a choice (RULES.md section 2), as types strict mypy checks.
UpcardMode: TypeAlias = Literal["turn_until_natural", "single", "none"]
InitialMeldComposition: TypeAlias = Literal["any", "clean_or_wild"]
ConcealedMinRule: TypeAlias = Literal["stock_exempt_pile_required", "always_required"]
WildRatioRule: TypeAlias = Literal["none", "le", "lt"]
DeadRankTrigger: TypeAlias = Literal["none", "natural_canasta", "any_canasta"]
WildMelds: TypeAlias = Literal["none", "progressive", "canasta_in_one_turn"]
FreezeScope: TypeAlias = Literal["per_side", "global_until_first_meld", "always"]
DiscardRules: TypeAlias = Literal["any", "modern"]
GoOutDiscard: TypeAlias = Literal["optional", "mandatory"]
PermissionMode: TypeAlias = Literal["off", "optional_binding", "mandatory", "once_per_deal_after_draw"]
ThreesMode: TypeAlias = Literal["red_bonus", "color_sets"]
StockExhaustion: TypeAlias = Literal["continue_with_discards", "end"]
LastCardThree: TypeAlias = Literal["expose_and_end", "stays_in_hand"]
EndPenalties: TypeAlias = Literal["classic", "modern"]
PileReview: TypeAlias = Literal["off", "own_turn"]

_SETS: Final[Mapping[str, frozenset[str]]] = {
    "pile_take_methods": frozenset({"pair", "natural_wild", "layoff"}),
    "freeze_triggers": frozenset({"wild", "red3_upcard", "black3"}),
    "block_rules": frozenset({"wild_top", "black3_top", "red3_top", "one_card", "canasta_rank", "dead_rank"}),
}
_FIXED: Final = ("variant", "players")
#: The range of every numeric house option (docs/protocol.md lists them; for `red3_values` and
#: `initial_meld_table`, of each number they hold); `_validate` then checks what depends on the
#: rest (a hand must fit the deck, teams the player count, jokers the packs).
OPTION_RANGES: Final[Mapping[str, tuple[int, int]]] = {
    "teams": (2, 3),
    "decks": (1, 4),
    "jokers": (0, 8),
    "hand_size": (1, 20),
    "draw_count": (1, 3),
    "meld_min_naturals": (1, 7),
    "meld_max_wilds": (0, 7),
    "meld_max_size": (3, 20),
    "canasta_bonus_natural": (0, 5000),
    "canasta_bonus_mixed": (0, 5000),
    "canasta_bonus_wild": (0, 5000),
    "go_out_min_canastas": (0, 4),
    "go_out_bonus": (0, 2000),
    "concealed_total": (0, 2000),
    "black3_hand_value": (0, 1000),
    "target_score": (1, 100_000),
    "red3_values": (0, 5000),
    "initial_meld_table": (-(10**9), 100_000),
}
#: Jokers a deck may hold for each of its packs.
JOKERS_PER_DECK: Final = 2


def _choices(kind: Any) -> dict[str, tuple[str, ...]]:
    """The metadata of an option that is a choice: its values, those of its type (the compiled
    class keeps no annotation to read them from)."""
    return {"choices": get_args(kind)}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The static configuration of a game: a preset plus options. Build with `RuleSet.preset`."""

    variant: str = "classic"
    players: int = 4
    teams: int = 2
    decks: int = 2
    jokers: int = 4
    hand_size: int = 11
    draw_count: int = 1
    upcard_mode: UpcardMode = field(default="turn_until_natural", metadata=_choices(UpcardMode))
    upcard_skip_black3: bool = True
    initial_meld_table: tuple[tuple[int, int], ...] = CLASSIC_MINIMUMS
    initial_meld_counts_top_card: bool = True
    initial_meld_composition: InitialMeldComposition = field(
        default="any", metadata=_choices(InitialMeldComposition)
    )
    opening_canasta_exempt: bool = False
    concealed_min_rule: ConcealedMinRule = field(
        default="stock_exempt_pile_required", metadata=_choices(ConcealedMinRule)
    )
    concealed_forbids_final_turn_layoff: bool = False
    meld_min_naturals: int = 2
    meld_max_wilds: int = 3
    wild_ratio_rule: WildRatioRule = field(default="none", metadata=_choices(WildRatioRule))
    meld_max_size: int | None = None
    rule_of_five: bool = False
    sevens_no_wilds: bool = False
    aces_wilds_opening_only: bool = False
    dead_rank_trigger: DeadRankTrigger = field(default="none", metadata=_choices(DeadRankTrigger))
    wild_melds: WildMelds = field(default="none", metadata=_choices(WildMelds))
    canasta_bonus_natural: int = 500
    canasta_bonus_mixed: int = 300
    canasta_bonus_wild: int = 2000
    special_canasta_bonuses: bool = False
    pile_take_methods: frozenset[str] = frozenset({"pair", "natural_wild", "layoff"})
    freeze_triggers: frozenset[str] = frozenset({"wild", "red3_upcard"})
    freeze_scope: FreezeScope = field(default="per_side", metadata=_choices(FreezeScope))
    block_rules: frozenset[str] = frozenset({"wild_top", "black3_top", "one_card"})
    black3_pickup_to_go_out: bool = False
    top_card_only_go_out: bool = False
    discard_rules: DiscardRules = field(default="any", metadata=_choices(DiscardRules))
    go_out_min_canastas: int = 1
    go_out_discard: GoOutDiscard = field(default="optional", metadata=_choices(GoOutDiscard))
    black3_meld_no_discard: bool = False
    forbid_go_out_with_incomplete_special: bool = False
    go_out_bonus: int = 100
    concealed_total: int = 200
    permission_mode: PermissionMode = field(default="optional_binding", metadata=_choices(PermissionMode))
    threes_mode: ThreesMode = field(default="red_bonus", metadata=_choices(ThreesMode))
    red3_values: tuple[int, ...] = (100, 200, 300, 800)
    black3_hand_value: int = 5
    stock_exhaustion: StockExhaustion = field(
        default="continue_with_discards", metadata=_choices(StockExhaustion)
    )
    last_card_three: LastCardThree = field(default="expose_and_end", metadata=_choices(LastCardThree))
    end_penalties: EndPenalties = field(default="classic", metadata=_choices(EndPenalties))
    target_score: int = 5000
    pile_review: PileReview = field(default="off", metadata=_choices(PileReview))
    options: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    # -- construction -------------------------------------------------------------------------

    @staticmethod
    def preset(
        variant: object = "classic",
        players: object = None,
        options: Mapping[str, Any] | None = None,
    ) -> RuleSet:
        """The rule set of a preset for a player count, with house options applied and checked
        (a variant or a count of any type: read from a file, it is checked here); the same
        arguments give the same object (`RULE_SETS_KEPT`)."""
        if not isinstance(variant, str) or variant not in PLAYER_COUNTS:
            raise InvalidActionError(
                f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", "unknown_variant"
            )
        allowed = PLAYER_COUNTS[variant]
        if players is None:
            players = 4
        if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
            raise InvalidActionError(
                f"{variant} is played by {', '.join(map(str, allowed))} players, not {players!r}",
                "bad_players",
            )
        opts = dict(options or {})
        asked = (variant, players, repr(sorted(opts.items(), key=lambda item: str(item[0]))))
        known = _MADE.get(asked)
        if known is not None:
            return known
        if "sides" in opts:
            opts.setdefault("teams", opts.pop("sides"))
        teams = opts.get("teams")
        base = _preset_values(variant, players, teams if isinstance(teams, int) else None)
        values = dict(base)
        for key, value in opts.items():
            values[key] = _coerce(key, value, base)
        _apply_shortcuts(values, opts)
        rules = RuleSet(variant=variant, players=players, options=_canonical_options(opts), **values)
        rules._validate()
        if len(_MADE) >= RULE_SETS_KEPT:
            _MADE.clear()
        _MADE[asked] = rules
        return rules

    def __reduce__(self) -> tuple[type[RuleSet], tuple[Any, ...]]:
        """Pickled as its fields but the cache (the compiled frozen class sets none one by one)."""
        return RuleSet, tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "cache")

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """This rule set's preset with further options applied."""
        merged = {**self.options, **options}
        return RuleSet.preset(self.variant, self.players, merged)

    # -- derived facts ------------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        """The team index of a seat (see `docs/layouts` in the README)."""
        return seat % self.teams

    def seats_of(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s % self.teams == team)

    @property
    def partnership(self) -> bool:
        return self.teams < self.players

    def is_bonus_three(self, card: Card) -> bool:
        """Whether the card is laid out as a bonus card (red threes; every three in color sets)."""
        return card.is_red_three or (card.is_three and self.threes_mode == "color_sets")

    def minimum_for(self, score: int) -> int:
        """The opening minimum for a team whose cumulative score is `score`."""
        result = self.initial_meld_table[0][1]
        for threshold, minimum in self.initial_meld_table:
            if score >= threshold:
                result = minimum
        return result

    def red_three_score(self, count: int) -> int:
        """The bonus for `count` bonus threes of one kind (unsigned)."""
        if count <= 0:
            return 0
        table = self.red3_values
        if count <= len(table):
            return table[count - 1]
        return table[-1] + (count - len(table)) * 100

    @property
    def deck_size(self) -> int:
        return self.decks * 52 + self.jokers

    def to_options(self) -> dict[str, Any]:
        """The options that differ from the preset, as given (JSON-ready)."""
        return dict(self.options)

    # -- validation ---------------------------------------------------------------------------

    def _validate(self) -> None:
        def bad(message: str) -> InvalidActionError:
            return InvalidActionError(message, "bad_option")

        if self.players in (2, 3) and self.teams != self.players:
            raise bad(f"with {self.players} players every player is a team of one")
        if self.players == 4 and self.teams != 2:
            raise bad("4 players play as two partnerships (teams 2)")
        if self.players == 6 and self.teams not in (2, 3):
            raise bad("6 players play as 2 teams of 3 or 3 teams of 2")
        if self.players == 5 and self.teams != 2:
            raise bad("5 players play as 2 teams (2 against 3)")
        active = 4 if self.players == 5 else self.players
        if self.hand_size * active + 2 > self.deck_size:
            raise bad(f"hand_size {self.hand_size} does not fit a {self.deck_size}-card deck")
        if self.jokers > JOKERS_PER_DECK * self.decks:
            raise bad(f"at most {JOKERS_PER_DECK} jokers per pack ({self.decks} packs)")
        if not self.red3_values:
            raise bad("red3_values needs at least one value")
        if not self.initial_meld_table:
            raise bad("initial_meld_table needs at least one row")
        if not self.pile_take_methods:
            raise bad("pile_take_methods needs at least one method")
        if self.permission_mode != "off" and not self.partnership:
            raise bad("asking partner's permission needs partnerships")
        if self.top_card_only_go_out and self.go_out_discard == "mandatory":
            raise bad("top_card_only_go_out forbids the final discard that go_out_discard requires")
        if self.black3_meld_no_discard and self.go_out_discard == "mandatory":
            raise bad("black3_meld_no_discard contradicts a mandatory final discard")
        max_size = self.meld_max_size
        if self.wild_melds == "canasta_in_one_turn" and max_size is not None and max_size < 7:
            raise bad("a wild canasta needs meld_max_size of at least 7")
        if self.threes_mode == "color_sets" and self.black3_pickup_to_go_out:
            raise bad("with threes_mode color_sets no three is ever on the pile")


#: Rule sets made by `RuleSet.preset`, by its arguments: a table's positions, loaded again and
#: again, share one rule set and what its `cache` remembers (a rule set is immutable).
RULE_SETS_KEPT = 256
_MADE: dict[tuple[object, ...], RuleSet] = {}


def _preset_values(variant: str, players: int, teams: int | None) -> dict[str, Any]:
    """Field values of a preset (before options)."""
    v: dict[str, Any] = {}
    if variant == "classic":
        v["teams"] = {2: 2, 3: 3, 4: 2, 5: 2}.get(players, teams if teams in (2, 3) else 2)
        v["hand_size"] = {2: 15, 3: 13, 6: 13}.get(players, 11)
        v["draw_count"] = 2 if players in (2, 3) else 1
        v["go_out_min_canastas"] = 2 if players in (2, 6) else 1
        v["permission_mode"] = "optional_binding" if players in (4, 5, 6) else "off"
        if players == 3:
            v["target_score"] = 7500
        if players == 6:
            v["decks"], v["jokers"] = 3, 6
            v["red3_values"] = (100, 200, 300, 800, 1000, 1200)
            if v["teams"] == 2:
                v["target_score"] = 10000
                v["initial_meld_table"] = (*CLASSIC_MINIMUMS, (7500, 150))
            else:
                v["target_score"] = 7500
    elif variant == "modern-american":
        v.update(
            hand_size=13,
            upcard_mode="none",
            initial_meld_table=MODERN_MINIMUMS,
            initial_meld_counts_top_card=False,
            initial_meld_composition="clean_or_wild",
            opening_canasta_exempt=True,
            meld_max_wilds=2,
            meld_max_size=7,
            rule_of_five=True,
            sevens_no_wilds=True,
            aces_wilds_opening_only=True,
            dead_rank_trigger="natural_canasta",
            wild_melds="progressive",
            special_canasta_bonuses=True,
            pile_take_methods=frozenset({"pair"}),
            freeze_scope="always",
            block_rules=frozenset({"wild_top", "one_card", "dead_rank"}),
            discard_rules="modern",
            go_out_min_canastas=2,
            go_out_discard="mandatory",
            concealed_total=100,
            permission_mode="once_per_deal_after_draw",
            threes_mode="color_sets",
            red3_values=(100, 300, 500, 1000),
            stock_exhaustion="end",
            last_card_three="stays_in_hand",
            end_penalties="modern",
            target_score=8500,
        )
    elif variant == "online":
        v.update(
            teams=2,
            hand_size=15 if players == 2 else 11,
            upcard_mode="single",
            wild_ratio_rule="le",
            wild_melds="canasta_in_one_turn",
            block_rules=frozenset({"wild_top", "black3_top", "red3_top", "one_card"}),
            black3_pickup_to_go_out=True,
            go_out_min_canastas=2 if players == 2 else 1,
            permission_mode="off",
            black3_hand_value=100,
            stock_exhaustion="end",
        )
    else:  # mendelev
        v.update(
            freeze_triggers=frozenset({"wild", "red3_upcard"}),
            block_rules=frozenset({"wild_top", "black3_top", "one_card", "canasta_rank"}),
            top_card_only_go_out=True,
            black3_meld_no_discard=True,
        )
    return v


_FIELD_DEFAULTS: Final = {f.name: f.default for f in dataclasses.fields(RuleSet)}
#: Each choice option's values.
_CHOICES: Final[Mapping[str, tuple[str, ...]]] = {
    f.name: f.metadata["choices"] for f in dataclasses.fields(RuleSet) if "choices" in f.metadata
}
_SHORTCUTS: Final = ("pile_take_by_layoff", "black3_freezes")


def _coerce(key: str, value: Any, base: Mapping[str, Any]) -> Any:
    """Check one option's value and convert it to the field's type."""
    if key in _FIXED or key in ("options", "cache"):
        raise InvalidActionError(f"option {key!r} is not an option (give it on its own)", "bad_option")
    if key in _SHORTCUTS:
        if not isinstance(value, bool):
            raise InvalidActionError(f"option {key!r} must be true or false", "bad_option")
        return value
    if key not in _FIELD_DEFAULTS:
        raise InvalidActionError(f"unknown option {key!r}", "unknown_option")
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise InvalidActionError(
                f"option {key} must be one of {', '.join(_CHOICES[key])}, not {value!r}",
                "bad_option",
            )
        return value
    if key in _SETS:
        if not isinstance(value, list | tuple) or not set(value) <= _SETS[key]:
            raise InvalidActionError(
                f"option {key} must be a list of {', '.join(sorted(_SETS[key]))}", "bad_option"
            )
        return frozenset(value)
    if key == "initial_meld_table":
        try:
            rows = tuple(sorted((int(t), int(m)) for t, m in value))
        except (TypeError, ValueError):
            raise InvalidActionError(
                "option initial_meld_table must be a list of [score, minimum] pairs", "bad_option"
            ) from None
        if any(isinstance(x, bool) for row in value for x in row):
            raise InvalidActionError("initial_meld_table holds numbers", "bad_option")
        _check_range(key, [x for row in rows for x in row])
        return ((-(10**9), rows[0][1]), *rows[1:]) if rows and rows[0][0] > -(10**9) else rows
    if key == "red3_values":
        if not isinstance(value, list | tuple) or not all(_is_int(x) for x in value):
            raise InvalidActionError("option red3_values must be a list of numbers", "bad_option")
        _check_range(key, value)
        return tuple(value)
    if isinstance(_FIELD_DEFAULTS[key], bool):
        if not isinstance(value, bool):
            raise InvalidActionError(f"option {key} must be true or false", "bad_option")
        return value
    if key == "meld_max_size" and value is None:
        return None
    if not _is_int(value):
        raise InvalidActionError(f"option {key} must be a whole number, not {value!r}", "bad_option")
    _check_range(key, (value,))
    return value


def _check_range(key: str, numbers: Sequence[int]) -> None:
    """Refuse an option's numbers outside its range (`OPTION_RANGES`)."""
    bounds = OPTION_RANGES.get(key)
    if bounds is not None and any(not bounds[0] <= n <= bounds[1] for n in numbers):
        lo, hi = bounds
        raise InvalidActionError(f"option {key}: expected a whole number from {lo} to {hi}", "bad_option")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _apply_shortcuts(values: dict[str, Any], opts: Mapping[str, Any]) -> None:
    """Boolean shortcuts of RULES.md section 3 that toggle one member of a set option."""
    for shortcut, key, member in (
        ("pile_take_by_layoff", "pile_take_methods", "layoff"),
        ("black3_freezes", "freeze_triggers", "black3"),
    ):
        if shortcut in opts:
            on = values.pop(shortcut)
            members = set(values.get(key, _FIELD_DEFAULTS[key]))
            values[key] = frozenset(members | {member} if on else members - {member})


def _canonical_options(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (sorted(v) if isinstance(v, set | frozenset) else v) for k, v in opts.items()}
