"""What one seat may know, as a flat tensor of fixed shape and as text.

Both read only the seat's own hand and the public table (what the engine's `SeatView` holds):
never another hand beyond the cards known from a pickup, never the stock's cards. Seats and
teams are relative to the observer: row 0 is the observer (its team), row 1 the next seat in
seat order (the next team), and so on. Counts are plain numbers of cards; points (scores and
the opening minimum) are divided by 1000.

The tensor's pieces, in order, are `ObservationLayout.pieces` (name -> offset and shape; P
players, T teams, 53 card kinds in `ALL_CARDS` order, 13 meld ranks A..4, 3, wild): `hand` (53),
`known` (P x 53), `hand_sizes` (P), `stock` (1), `pile` (53, by kind), `pile_top` (53, one-hot),
`pile_state` (4), `melds` (T x 13 x 4), `threes` (T x 2), `teams` (T x 3), `seats` (P x 6),
`phase` (4), `turn` (8), `permission` (3), `staged` (6 + 13 x 3); docs/learning.md says what
each number is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.learning.actions import GROUP_RANKS
from canasta.rules import ALL_CARDS, Card, RuleSet

if TYPE_CHECKING:
    from canasta.learning.game import LearningState

KINDS = len(ALL_CARDS)
_RANK_ROW = {r: i for i, r in enumerate(GROUP_RANKS)}
_PHASES = {"draw": 1, "play": 2, "ended": 3}
_PERMISSIONS = {"pending": 0, "yes": 1, "no": 2}
SCALE = 1000.0
#: The rows of the public history, per seat: cards discarded, taken with the pile, melded.
PUBLIC_ROWS = ("discarded", "taken", "melded")


class ObservationLayout:
    """The pieces of a rule set's tensor: name -> (offset, shape)."""

    def __init__(self, rules: RuleSet) -> None:
        p, t, r = rules.players, rules.teams, len(GROUP_RANKS)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (KINDS,)),
            ("known", (p, KINDS)),
            ("hand_sizes", (p,)),
            ("stock", (1,)),
            ("pile", (KINDS,)),
            ("pile_top", (KINDS,)),
            ("pile_state", (4,)),
            ("melds", (t, r, 4)),
            ("threes", (t, 2)),
            ("teams", (t, 3)),
            ("seats", (p, 6)),
            ("phase", (4,)),
            ("turn", (8,)),
            ("permission", (3,)),
            ("staged", (6 + 3 * r,)),
        ]
        self.pieces: dict[str, tuple[int, tuple[int, ...]]] = {}
        offset = 0
        for name, shape in shapes:
            self.pieces[name] = (offset, shape)
            size = 1
            for n in shape:
                size *= n
            offset += size
        self.size = offset
        self._at = {name: off for name, (off, _) in self.pieces.items()}
        #: The information-state tensor: the observation, then `history` (P x 3 x 53: per seat,
        #: the cards it discarded, took with the pile and melded, by kind, this deal).
        self.info_pieces = {**self.pieces, "history": (offset, (p, len(PUBLIC_ROWS), KINDS))}
        self.info_size = offset + p * len(PUBLIC_ROWS) * KINDS

    def tensor(self, ls: LearningState, seat: int, private: bool = True) -> list[float]:
        """The tensor of `seat` (see the module docstring); without `private`, the public part
        only (the `hand` piece all zeros)."""
        out = [0.0] * self.size
        at = self._at
        state = ls.state
        if state is None:
            out[at["phase"]] = 1.0
            return out
        rules = state.rules
        players, teams = rules.players, rules.teams
        team = seat % teams
        for c in state.hands[seat] if private else ():
            out[at["hand"] + c.index] += 1
        for s in range(players):
            rel = (s - seat) % players
            for c in state.known[s]:
                out[at["known"] + rel * KINDS + c.index] += 1
            out[at["hand_sizes"] + rel] = float(len(state.hands[s]))
            row = at["seats"] + rel * 6
            out[row] = float(state.seat_melded[s])
            out[row + 1] = float(state.asked[s])
            out[row + 2] = float(s == state.dealer)
            out[row + 3] = float(s == state.sitting_out)
            out[row + 4] = float(s == state.turn)
            out[row + 5] = float(s == state.to_move)
        out[at["stock"]] = float(len(state.stock))
        for c in state.pile:
            out[at["pile"] + c.index] += 1
        ps = at["pile_state"]
        if state.pile:
            out[at["pile_top"] + state.pile[-1].index] = 1.0
        out[ps] = float(len(state.pile))
        out[ps + 1] = float(state.pile_frozen)
        out[ps + 2] = float(state.frozen_for(team))
        out[ps + 3] = float(state.pile_block(seat) is not None)
        for t in range(teams):
            rel = (t - team) % teams
            for rank, cards in state.melds[t].items():
                row = at["melds"] + (rel * len(GROUP_RANKS) + _RANK_ROW[rank]) * 4
                out[row] = 1.0
                for c in cards:
                    out[row + (2 if c.is_joker else 3 if c.is_two else 1)] += 1
            threes = at["threes"] + rel * 2
            for c in state.threes[t]:
                out[threes + (0 if c.is_red_three else 1)] += 1
            row = at["teams"] + rel * 3
            out[row] = float(state.opened[t])
            out[row + 1] = state.scores[t] / SCALE
            out[row + 2] = state.minimum(t) / SCALE
        out[at["phase"] + _PHASES[state.phase]] = 1.0
        turn = at["turn"]
        flags = (
            state.drew == "stock",
            state.drew == "pile",
            state.turn_melded,
            state.concealed_ok,
            state.turn_canasta,
            state.turn_layoff,
            state.must_meld_out,
            state.permission is None,
        )
        for i, flag in enumerate(flags):
            out[turn + i] = float(flag)
        if state.permission is not None:
            out[at["permission"] + _PERMISSIONS[state.permission]] = 1.0
        if ls.staged:
            self._staged(ls, out, at["staged"])
        return out

    def info_tensor(self, ls: LearningState, seat: int, private: bool = True) -> list[float]:
        """The information-state tensor of `seat`: `tensor`, then the public history (seats
        relative to `seat`, as in the tensor)."""
        out = self.tensor(ls, seat, private)
        players = len(ls.public) // (len(PUBLIC_ROWS) * KINDS)
        row = len(PUBLIC_ROWS) * KINDS
        for rel in range(players):
            start = ((seat + rel) % players) * row
            out.extend(map(float, ls.public[start : start + row]))
        return out

    @staticmethod
    def _staged(ls: LearningState, out: list[float], at: int) -> None:
        space = ls.game.actions
        out[at] = 1.0
        for action_id in ls.staged:
            if space.take <= action_id < space.group:
                top_only = action_id >= space.take_top
                k, j, t = space.take_counts[action_id - (space.take_top if top_only else space.take)]
                out[at + 1 : at + 6] = [float(k), float(j), float(t), float(top_only), 1.0]
            elif action_id >= space.group:
                rank, k, j, t = space.groups[action_id - space.group]
                row = at + 6 + _RANK_ROW[rank] * 3
                out[row] += k
                out[row + 1] += j
                out[row + 2] += t


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(c.code for c in sorted(cards, key=_index)) or "-"


def _index(card: Card) -> int:
    return card.index


def describe(ls: LearningState, seat: int, private: bool = True) -> str:
    """The text of what `seat` may know now (the same facts as the tensor); without `private`,
    the public facts only (`hand: hidden`)."""
    state = ls.state
    if state is None:
        return f"seat {seat}: dealing, {len(ls.deck)} of {ls.game.rules.deck_size} cards dealt"
    rules = state.rules
    players, teams = rules.players, rules.teams
    seats = range(players)
    melds = []
    for t in range(teams):
        parts = [f"{rank.value}[{_cards(cards)}]" for rank, cards in state.melds[t].items()]
        melds.append(f"team {t}: {' '.join(parts) or '-'} threes {_cards(state.threes[t])}")
    pile = "frozen" if state.pile_frozen else "open"
    lines = [
        f"seat {seat} team {seat % teams}; dealer {state.dealer}"
        + (f", sitting out {state.sitting_out}" if state.sitting_out is not None else "")
        + f"; turn {state.turn}, to move {state.to_move}, phase {state.phase}"
        f", drew {state.drew or '-'}, permission {state.permission or '-'}",
        f"hand: {_cards(state.hands[seat]) if private else 'hidden'}",
        "known: " + " | ".join(_cards(state.known[s]) for s in seats),
        "hand sizes: " + " ".join(str(len(h)) for h in state.hands) + f"; stock {len(state.stock)}",
        f"pile ({pile}): " + (" ".join(c.code for c in state.pile) or "-"),
        *melds,
        "opened: " + " ".join("y" if o else "n" for o in state.opened)
        + "; scores " + " ".join(map(str, state.scores))
        + "; minimums " + " ".join(str(state.minimum(t)) for t in range(teams)),
        "melded: " + " ".join("y" if m else "n" for m in state.seat_melded)
        + "; asked: " + " ".join("y" if a else "n" for a in state.asked),
        f"turn: melded {state.turn_melded}, concealed {state.concealed_ok}, canasta {state.turn_canasta}, "
        f"layoff {state.turn_layoff}, must meld out {state.must_meld_out}",
        "staged: " + (" | ".join(ls.game.actions.to_string(a) for a in ls.staged) or "-"),
    ]
    if state.result is not None:
        lines.append("scores: " + " ".join(str(part.total) for part in state.result.scores))
    return "\n".join(lines)
