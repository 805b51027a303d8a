"""Property tests of the interchange notation (FORMATS.md): cards, groups, actions, positions,
records, and replay of records.

Test ids: N01-N20 (notation; FORMATS.md "Cards", "Actions", "Positions", "Records").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta.protocol.seat_view import read_seat_view, seat_memory
from canasta.rules import (
    ALL_CARDS,
    Card,
    Game,
    InvalidActionError,
    Record,
    RuleSet,
    action_from_json,
    action_to_json,
    make_deck,
    position_from_json,
    position_to_json,
)
from canasta.rules.actions import ACTION_TYPES, group_from_json, group_to_json
from canasta.rules.cards import Rank
from canasta.rules.parts import DRAW, Turn
from canasta.rules.record import replay

FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Every preset and player count the formats must carry (FORMATS.md, RULES.md 0.4).
PRESETS = [
    ("classic", 2), ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 6),
    ("modern-american", 4), ("online", 2), ("online", 4), ("mendelev", 4),
]

#: A few house options per preset, so that positions and records carry `options` too.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "classic": [
        {}, {"pile_take_by_layoff": False}, {"black3_freezes": True}, {"freeze_scope": "always"},
        {"wild_ratio_rule": "le"}, {"stock_exhaustion": "end"}, {"target_score": 2500},
    ],
    "modern-american": [{}, {"target_score": 5000}],
    "online": [{}, {"pile_take_by_layoff": False}],
    "mendelev": [{}, {"freeze_scope": "always"}],
}

MELD_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "wild"]


# -- strategies ---------------------------------------------------------------------------------


def _spell(draw: Any, code: str) -> str:
    """An accepted spelling of a canonical code: any case, `T` for ten."""
    if code.startswith("10") and draw(st.booleans()):
        code = "T" + code[2:]
    flips = draw(st.lists(st.booleans(), min_size=len(code), max_size=len(code)))
    return "".join(ch.lower() if flip else ch for ch, flip in zip(code, flips, strict=True))


@st.composite
def card_texts(draw: Any) -> tuple[str, str]:
    """(canonical code, an accepted spelling of it)."""
    card = draw(st.sampled_from(ALL_CARDS))
    return card.code, _spell(draw, card.code)


@st.composite
def groups(draw: Any) -> tuple[Any, Any]:
    """(canonical JSON, accepted JSON) of a group, in list or explicit-rank form."""
    pairs = draw(st.lists(card_texts(), min_size=1, max_size=8))
    canon = [c for c, _ in pairs]
    text = [t for _, t in pairs]
    if draw(st.booleans()):
        return canon, text
    rank = draw(st.sampled_from(MELD_RANKS))
    rank_text = _spell(draw, rank.upper()) if rank != "wild" else _spell(draw, "WILD")
    noisy = {"rank": rank_text, "cards": text}
    if draw(st.booleans()):
        noisy = {"cards": text, "rank": rank_text}
    return {"rank": rank, "cards": canon}, noisy


def _shuffled(draw: Any, obj: dict[str, Any]) -> dict[str, Any]:
    items = draw(st.permutations(list(obj.items())))
    return dict(items)


@st.composite
def actions(draw: Any, seat: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """(canonical JSON, accepted JSON) of an action of any type, with a seat."""
    kind = draw(st.sampled_from(ACTION_TYPES))
    canon: dict[str, Any] = {}
    noisy: dict[str, Any] = {}
    if seat:
        canon["seat"] = noisy["seat"] = draw(st.integers(0, 5))
    canon["type"] = noisy["type"] = kind
    if kind == "pickup":
        with_ = draw(st.lists(card_texts(), max_size=3))
        canon["with"] = [c for c, _ in with_]
        noisy["with"] = [t for _, t in with_]
        melds = draw(st.lists(groups(), max_size=3))
        if melds:
            canon["melds"] = [c for c, _ in melds]
        if melds or draw(st.booleans()):
            noisy["melds"] = [n for _, n in melds]
        top_only = draw(st.booleans())
        if top_only:
            canon["top_only"] = True
        if top_only or draw(st.booleans()):
            noisy["top_only"] = top_only
    elif kind == "meld":
        melds = draw(st.lists(groups(), min_size=1, max_size=4))
        canon["melds"] = [c for c, _ in melds]
        noisy["melds"] = [n for _, n in melds]
    elif kind == "discard":
        code, text = draw(card_texts())
        canon["card"], noisy["card"] = code, text
    elif kind == "answer":
        canon["yes"] = noisy["yes"] = draw(st.booleans())
    return canon, _shuffled(draw, noisy)


def play(variant: str, players: int, options: dict[str, Any], seed: int, steps: int,
         max_deals: int = 1) -> Game:
    """A game from a seeded deal, played `steps` random legal actions (across up to
    `max_deals` deals)."""
    game = Game.new(variant, players, options, seed=seed)
    rng = random.Random(seed)
    deals = 1
    for _ in range(steps):
        state = game.current
        if state.is_over:
            if deals >= max_deals or game.is_over:
                break
            game.next_deal()
            deals += 1
            continue
        game.apply(rng.choice(state.legal_actions()))
    return game


@st.composite
def games(draw: Any, preset: tuple[str, int] | None = None, max_deals: int = 1) -> Game:
    variant, players = preset if preset is not None else draw(st.sampled_from(PRESETS))
    options = draw(st.sampled_from(OPTIONS[variant]))
    seed = draw(st.integers(0, 10**6))
    steps = draw(st.integers(0, 400))
    return play(variant, players, options, seed, steps, max_deals)


def positions(preset: tuple[str, int] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    return games(preset).map(lambda g: position_to_json(g.current))


def records(preset: tuple[str, int] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    return games(preset, max_deals=3).map(lambda g: Record.of_game(g).to_json())


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    )


#: Arbitrary JSON values, biased towards words of the formats.
JSON_VALUES = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-10, 200), st.floats(allow_nan=False),
        st.sampled_from(["", "KS", "10H", "JK", "draw", "meld", "classic", "stock", "play", "x"]),
        st.text(max_size=5),
    ),
    _containers,
    max_leaves=12,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: Any, base: st.SearchStrategy[dict[str, Any]]) -> Any:
    """A valid object with one part replaced by arbitrary JSON or removed."""
    obj = json.loads(json.dumps(draw(base)))
    path = draw(st.sampled_from([p for p in _paths(obj) if p]))
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return obj


# -- cards --------------------------------------------------------------------------------------


@FAST
@given(card_texts())
def test_N01_card_spellings_parse_to_canonical(pair: tuple[str, str]) -> None:
    code, text = pair
    card = Card.parse(text)
    assert card.code == code
    assert str(card) == code
    assert Card.parse(card.code) is card


def test_N02_card_codes_are_exactly_the_documented_ones() -> None:
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    codes = {r + s for r in ranks for s in "SHDC"} | {"JK"}
    assert {c.code for c in ALL_CARDS} == codes
    assert Card.parse("th").code == "10H"
    assert Card.parse("Ks").code == "KS"
    assert Card.parse("jk").code == "JK"
    red = {c.code for c in ALL_CARDS if c.is_red_three}
    black = {c.code for c in ALL_CARDS if c.is_black_three}
    wild = {c.code for c in ALL_CARDS if c.is_wild}
    assert (red, black, wild) == ({"3H", "3D"}, {"3S", "3C"}, {"2S", "2H", "2D", "2C", "JK"})


_ACCEPTED = {
    t.upper() for c in ALL_CARDS for t in (c.code, "T" + c.code[2:] if c.code[:2] == "10" else c.code)
}


@FAST
@given(st.text(max_size=4) | st.sampled_from(["1H", "11S", "JKS", "KX", "K", "10", "T", "J K",
                                                "ks ", "Kſ", "TH\u0131", "\uff2bS", "0H", ""]))
def test_N03_unknown_card_codes_are_refused(text: str) -> None:
    if text.isascii() and text.strip().upper() in _ACCEPTED:
        assert Card.parse(text).code in {c.code for c in ALL_CARDS}
    else:
        with pytest.raises(InvalidActionError):
            Card.parse(text)


@pytest.mark.parametrize("value", [None, 3, 1.5, ["KS"], {"card": "KS"}, True])
def test_N04_a_card_must_be_a_string(value: Any) -> None:
    with pytest.raises(InvalidActionError):
        Card.parse(value)


@pytest.mark.parametrize(("packs", "jokers", "size"), [(2, 4, 108), (3, 6, 162)])
def test_N05_deck_sizes(packs: int, jokers: int, size: int) -> None:
    deck = make_deck(packs, jokers)
    assert len(deck) == size
    assert sum(c.is_joker for c in deck) == jokers
    assert all(deck.count(c) == packs for c in ALL_CARDS if not c.is_joker)
    assert RuleSet.preset("classic", 6).deck_size == 162
    assert RuleSet.preset("classic", 4).deck_size == 108


# -- groups and actions -------------------------------------------------------------------------


@FAST
@given(groups())
def test_N06_group_round_trip(pair: tuple[Any, Any]) -> None:
    canon, noisy = pair
    group = group_from_json(noisy)
    assert group_to_json(group) == canon
    assert group_from_json(canon) == group
    assert group_to_json(group_from_json(group_to_json(group))) == canon


@FAST
@given(actions())
def test_N07_action_parse_write_parse_is_identity(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    canon, noisy = pair
    text = json.dumps(noisy)
    action, seat = action_from_json(json.loads(text))
    assert seat == canon["seat"]
    written = json.dumps(action_to_json(action, seat))
    # write(parse(text)) is the canonical form, key order included, and is stable
    assert written == json.dumps(canon)
    assert action_from_json(json.loads(written)) == (action, seat)
    again = action_to_json(*action_from_json(json.loads(written)))
    assert json.dumps(again) == written


@FAST
@given(actions(seat=False))
def test_N08_action_without_seat(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    canon, noisy = pair
    action, seat = action_from_json(noisy)
    assert seat is None
    out = action_to_json(action)
    assert "seat" not in out
    assert out == canon
    assert next(iter(out)) == "type"


@pytest.mark.parametrize(
    "obj",
    [
        {"seat": 0, "type": "fold"},
        {"seat": 0},
        {"seat": 0, "type": "discard"},
        {"seat": 0, "type": "discard", "card": "KX"},
        {"seat": 0, "type": "discard", "card": 13},
        {"seat": 0, "type": "meld"},
        {"seat": 0, "type": "meld", "melds": "KS KH KD"},
        {"seat": 0, "type": "meld", "melds": [["KS", "KH", "1D"]]},
        {"seat": 0, "type": "meld", "melds": [{"cards": ["2C"]}]},
        {"seat": 0, "type": "meld", "melds": [{"rank": "2", "cards": ["2C"]}]},
        {"seat": 0, "type": "meld", "melds": [{"rank": "JK", "cards": ["JK"]}]},
        {"seat": 0, "type": "meld", "melds": [{"rank": "K"}]},
        {"seat": 0, "type": "meld", "melds": [{"rank": 13, "cards": ["KS"]}]},
        {"seat": 0, "type": "meld", "melds": ["KS"]},
        {"seat": 0, "type": "pickup"},
        {"seat": 0, "type": "pickup", "with": "KS"},
        {"seat": 0, "type": "pickup", "with": [], "top_only": "yes"},
        {"seat": 0, "type": "pickup", "with": [], "melds": {}},
        {"seat": 0, "type": "answer"},
        {"seat": 0, "type": "answer", "yes": 1},
        {"seat": -1, "type": "draw"},
        {"seat": "0", "type": "draw"},
        {"seat": True, "type": "draw"},
        {"seat": 1.0, "type": "draw"},
        {"type": 7},
        ["draw"],
        "draw",
    ],
)
def test_N09_malformed_actions_are_refused(obj: Any) -> None:
    with pytest.raises(InvalidActionError):
        action_from_json(obj)


@FAST
@given(JSON_VALUES)
def test_N10_arbitrary_json_is_an_action_or_invalid(obj: Any) -> None:
    """Never an exception other than InvalidActionError (the CLI's 'malformed input')."""
    try:
        action, seat = action_from_json(obj)
    except InvalidActionError:
        return
    assert action_from_json(action_to_json(action, seat)) == (action, seat)


# -- positions ----------------------------------------------------------------------------------


@FAST
@given(positions())
def test_N11_position_round_trip(pos: dict[str, Any]) -> None:
    text = json.dumps(pos)
    state = position_from_json(json.loads(text))
    assert position_to_json(state) == pos
    assert json.dumps(position_to_json(state)) == text  # canonical text, stable


@SLOW
@given(games(), st.integers(0, 10**6), st.integers(1, 60))
def test_N12_position_captures_the_whole_state(game: Game, seed: int, steps: int) -> None:
    """A state rebuilt from its position has the same legal actions and plays on identically."""
    original = game.current
    rebuilt = position_from_json(json.loads(json.dumps(position_to_json(original))))
    rng = random.Random(seed)
    for _ in range(steps):
        # legal_actions() picks one arrangement of cards where several are legal, following
        # the hand's order (not part of the position); legality itself must agree
        for a in original.legal_actions():
            assert rebuilt.check(a) is None, action_to_json(a)
        for a in rebuilt.legal_actions():
            assert original.check(a) is None, action_to_json(a)
        if original.is_over:
            break
        choice = rng.choice(original.legal_actions())
        original.apply(choice)
        rebuilt.apply(choice)
        assert position_to_json(rebuilt) == position_to_json(original)
    if original.is_over:
        assert rebuilt.result == original.result


_DOCUMENTED = {
    "format", "variant", "players", "options", "scores", "dealer", "turn", "phase", "hands",
    "stock", "pile", "melds", "red_threes", "seat_melded", "asked", "drew", "opened",
    "pile_frozen", "sitting_out",
}


@FAST
@given(positions())
def test_N13_position_with_only_documented_fields(pos: dict[str, Any]) -> None:
    """FORMATS.md: a project may add fields but must accept positions without them."""
    if pos["phase"] == "ended":
        pos = {k: v for k, v in pos.items() if k not in ("reason", "went_out", "concealed")}
    small = {k: v for k, v in pos.items() if k in _DOCUMENTED}
    state = position_from_json(small)
    back = position_to_json(state)
    for key in ("variant", "players", "options", "scores", "dealer", "turn", "phase", "stock",
                "pile", "red_threes", "seat_melded", "asked", "opened", "pile_frozen"):
        assert back[key] == pos[key], key
    assert [sorted(h) for h in back["hands"]] == [sorted(h) for h in pos["hands"]]
    assert [sorted(map(sorted, m)) for m in back["melds"]] == [
        sorted(map(sorted, m)) for m in pos["melds"]
    ]


def test_N14_position_from_formats_example_and_defaults() -> None:
    pos = {
        "format": "canasta-position/1", "variant": "classic", "players": 4, "options": {},
        "scores": [0, 0], "dealer": 3, "turn": 0, "phase": "draw",
        "hands": [["ks", "KH", "9D"], ["5S"], ["6S"], ["7S"]],
        "stock": ["5C", "JK", "QD"], "pile": ["6C", "2C", "8D", "JH"],
        "melds": [[["7s", "7H", "7D"], ["AS", "AH", "2D"]], []],
        "red_threes": [["3H"], []],
    }
    state = position_from_json(pos)
    out = position_to_json(state)
    assert out["hands"][0] == ["KS", "KH", "9D"]
    assert out["stock"] == ["5C", "JK", "QD"]
    assert state.stock[-1].code == "5C"  # top of the stock
    assert out["pile"] == ["6C", "2C", "8D", "JH"]
    assert out["melds"][0] == [["7S", "7H", "7D"], ["AS", "AH", "2D"]]
    assert out["opened"] == [True, False]
    assert out["pile_frozen"] is True  # the pile holds a two
    assert out["seat_melded"] == [False] * 4
    assert out["asked"] == [False] * 4
    assert position_from_json(out) is not state
    assert position_to_json(position_from_json(out)) == out


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"hands": [["KS", "KS", "KS"], [], [], []]}, "KS"),
        ({"pile": ["JK", "JK", "JK", "JK", "JK"]}, "JK"),
        ({"hands": [["XS"], [], [], []]}, "XS"),
        ({"phase": "discard"}, "phase"),
        ({"turn": 4}, "turn"),
        ({"dealer": "3"}, "dealer"),
        ({"hands": [[], [], []]}, "hands"),
        ({"melds": [[["KS", "QS", "JS"]], []]}, ""),
        ({"melds": [[["KS", "KH", "KD"], ["KC", "2C", "2D"]], []]}, "K"),
        ({"variant": "rummy"}, "rummy"),
        ({"players": 7}, "7"),
        ({"options": {"no_such_option": 1}}, "no_such_option"),
        ({"options": {"freeze_scope": "sometimes"}}, "freeze_scope"),
        ({"format": "canasta-position/2"}, "format"),
        ({"drew": "hand", "phase": "play"}, "drew"),
        ({"seat_melded": [True]}, "seat_melded"),
        ({"scores": [0, "0"]}, "scores"),
    ],
)
def test_N15_malformed_positions_are_refused(change: dict[str, Any], fragment: str) -> None:
    pos = {
        "format": "canasta-position/1", "variant": "classic", "players": 4, "options": {},
        "scores": [0, 0], "dealer": 3, "turn": 0, "phase": "draw",
        "hands": [["KS"], ["QS"], ["JS"], ["10S"]], "stock": ["5C"], "pile": ["6C"],
        "melds": [[], []], "red_threes": [[], []],
    }
    pos.update(change)
    with pytest.raises(InvalidActionError) as info:
        position_from_json(pos)
    assert fragment in info.value.message
    assert "\n" not in info.value.message


@FAST
@given(mutated(positions()))
def test_N16_damaged_positions_are_accepted_or_invalid(obj: Any) -> None:
    try:
        state = position_from_json(obj)
    except InvalidActionError:
        return
    position_to_json(state)


# -- records ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), PRESETS)
@SLOW
@given(data=st.data())
def test_N17_record_replays_to_the_same_position(variant: str, players: int, data: Any) -> None:
    game = data.draw(games((variant, players), max_deals=3))
    record = Record.of_game(game).to_json()
    text = json.dumps(record)
    parsed = Record.from_json(json.loads(text))
    assert parsed.to_json() == record  # record parse -> write is the identity
    out, replayed = replay(parsed)
    assert out["ok"] is True
    assert "error" not in out
    assert out["position"] == position_to_json(game.current)
    assert position_to_json(replayed.current) == position_to_json(game.current)
    assert out["totals"] == game.totals
    assert out["game_over"] == game.is_over
    assert out["winner"] == game.winner
    assert len(out["deals"]) == len(record["deals"])
    for summary, result in zip(out["deals"], [*game.results, None], strict=False):
        if result is None:
            assert summary == {"ended": False}
        else:
            assert summary["ended"] is True
            assert summary["reason"] == result.reason
            assert [s["total"] for s in summary["scores"]] == [s.total for s in result.scores]
    assert Record.of_game(replayed).to_json() == record


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_N18_finished_deal_replays_with_scores(variant: str, players: int) -> None:
    game = play(variant, players, {}, seed=players * 7 + len(variant), steps=10_000)
    assert game.current.is_over
    out, _ = replay(Record.from_json(json.loads(json.dumps(Record.of_game(game).to_json()))))
    assert out["ok"] is True
    (deal,) = out["deals"]
    assert deal["ended"] is True
    assert deal["reason"] in ("went_out", "stock_exhausted")
    assert len(deal["scores"]) == RuleSet.preset(variant, players).teams
    for part in deal["scores"]:
        assert set(part) == {"cards", "canastas", "threes", "going_out", "hand", "penalties",
                             "total"}
        assert part["total"] == sum(v for k, v in part.items() if k != "total")
        assert part["hand"] <= 0 and part["penalties"] <= 0
    assert out["totals"] == [p["total"] for p in deal["scores"]]
    assert out["position"]["phase"] == "ended"
    # the final position, replayed as a position, is the same ended deal
    out2, _ = replay(Record.from_json(out["position"]))
    assert out2["ok"] is True
    assert out2["position"] == out["position"]
    assert out2["deals"] == [deal]


@FAST
@given(mutated(records()) | JSON_VALUES)
def test_N19_damaged_records_are_accepted_or_invalid(obj: Any) -> None:
    """Malformed records raise InvalidActionError only; well-formed ones replay without error
    other than an illegal action reported in the output."""
    try:
        record = Record.from_json(obj)
    except InvalidActionError:
        return
    out, _ = replay(record)
    json.dumps(out)
    if not out["ok"]:
        assert set(out["error"]) == {"deal", "action", "code", "message"}


#: Per field of `Turn` that is not true or false, a value other than that of the turn after a
#: draw from the stock (a new flag, true or false, needs nothing here).
_TURN_CHANGES: dict[str, Any] = {
    "seat": 2,
    "phase": DRAW,
    "drew": "pile",
    "permission": "pending",
    "started": {Rank.KING},
}


def _turn_fields() -> tuple[str, ...]:
    """The fields of `Turn` (the compiled class lists them in `__mypyc_attrs__`)."""
    return tuple(getattr(Turn, "__slots__", None) or Turn.__mypyc_attrs__)


@pytest.mark.parametrize("name", _turn_fields())
def test_N20_every_turn_field_round_trips_a_position_and_a_view(name: str) -> None:
    """Each field of the turn in progress is written and read by the one writer and reader,
    in a position and in a seat's view over the wire (its `view` and `memory`)."""
    state = Game.new("classic", 4, seed=5).current
    state.apply(action_from_json({"type": "draw"})[0])
    fresh = getattr(state.now, name)
    if name in _TURN_CHANGES:
        value = _TURN_CHANGES[name]
    else:
        assert isinstance(fresh, bool), f"give Turn.{name} a changed value in _TURN_CHANGES"
        value = not fresh
    assert value != fresh
    setattr(state.now, name, value)

    again = position_from_json(json.loads(json.dumps(position_to_json(state))))
    assert getattr(again.now, name) == value

    view = state.view(0)
    wire = json.loads(json.dumps({"view": view.to_json(), "memory": seat_memory(view)}))
    assert getattr(read_seat_view(wire["view"], wire["memory"], state.rules).now, name) == value
