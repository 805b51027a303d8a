"""What the terminal game shows: the table from one seat's view, the moves, deal ends, the sheet."""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from canasta.cli.action_text import action_text
from canasta.cli.engine_commands import format_table
from canasta.cli.play_text import PART_TEXTS, TEXTS
from canasta.rules import Action, Ask, Card, DealResult, Discard, Rank, RuleSet, SeatView
from canasta.rules.cards import sorted_cards
from canasta.rules.scoring import PARTS


@dataclass(frozen=True)
class Names:
    """How the human (`seat`) sees the seats and teams, and in which language (`lang`)."""

    seats: tuple[str, ...]
    teams: tuple[str, ...]
    lang: str = "en"

    @property
    def text(self) -> Mapping[str, str]:
        return TEXTS[self.lang]

    @classmethod
    def for_seat(cls, rules: RuleSet, human: int, lang: str = "en") -> Names:
        text = TEXTS[lang]
        mine = rules.team_of(human)
        seats = tuple(
            text["you"] if s == human
            else text["partner" if rules.team_of(s) == mine else "seat"].format(seat=s)
            for s in range(rules.players)
        )
        teams = []
        for t in range(rules.teams):
            members = rules.seats_of(t)
            if len(members) == 1:
                teams.append(seats[members[0]])
            else:
                name = text["your_team"] if t == mine else text["team"].format(team=t)
                teams.append(text["team_seats"].format(name=name, seats=", ".join(map(str, members))))
        return cls(seats, tuple(teams), lang)


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def hand_text(hand: Sequence[Card]) -> str:
    """A hand in display order (wild cards first, then aces down to threes), ranks split by '|'."""
    runs: list[list[Card]] = []
    for card in hand:
        if runs and (runs[-1][0].rank is card.rank or (runs[-1][0].is_wild and card.is_wild)):
            runs[-1].append(card)
        else:
            runs.append([card])
    return " | ".join(cards_text(run) for run in runs)


def meld_text(rank: Rank, cards: Sequence[Card], text: Mapping[str, str] = TEXTS["en"]) -> str:
    """A meld as `K [KS KH KD]`, or a canasta by its kind and size (`7 mixed canasta (7)`)."""
    name = text["wild_rank"] if rank is Rank.WILD else rank.value
    if len(cards) < 7:
        return text["meld"].format(rank=name, cards=cards_text(cards))
    if rank is Rank.WILD:
        kind = text["canasta_wild"]
    elif any(c.is_wild for c in cards):
        kind = text["canasta_mixed"]
    else:
        kind = text["canasta_natural"]
    return text["canasta"].format(rank=name, kind=kind, count=len(cards))


def render_table(view: SeatView, deal: int, names: Names) -> str:
    """The table as `view.seat` may see it, compactly: a line for the stock and the pile, one per
    team (score, whether it opened, melds), the hand sizes and one's own hand."""
    rules, board = view.rules, view.board
    w = names.text
    lines = [w["title"].format(deal=deal, variant=rules.variant, players=rules.players,
                               target=rules.target_score)]
    lines.append(w["stock_pile"].format(stock=view.stock_size, pile=_pile_text(view, w)))
    for t in range(rules.teams):
        melds = " · ".join(meld_text(r, cs, w) for r, cs in board.melds[t].items()) or w["no_melds"]
        if board.threes[t]:
            melds += w["threes"].format(cards=cards_text(board.threes[t]))
        status = w["opened"] if board.opened[t] else w["to_open"].format(minimum=view.minimums[t])
        lines.append(w["team_line"].format(team=names.teams[t], score=board.scores[t], status=status,
                                           melds=melds))
    entries = []
    for s in range(rules.players):
        if s == board.sitting_out:
            entries.append(w["sitting_out"].format(name=names.seats[s]))
        elif board.known[s] and s != view.seat:
            entries.append(w["hand_known"].format(name=names.seats[s], count=view.hand_sizes[s],
                                                  cards=cards_text(board.known[s])))
        else:
            entries.append(w["hand_entry"].format(name=names.seats[s], count=view.hand_sizes[s]))
    lines.append(w["hands"].format(entries=" · ".join(entries)))
    if view.now.permission == "pending":
        lines.append(w["permission"].format(asker=names.seats[view.now.seat]))
    lines.append(w["your_hand"].format(count=len(view.hand), cards=hand_text(view.hand)))
    return "\n".join(lines)


def _pile_text(view: SeatView, w: Mapping[str, str]) -> str:
    pile = view.board.pile
    if not pile:
        text = w["pile_empty"]
    elif len(view.visible_pile) > 1:
        text = w["pile_whole"].format(size=len(pile), cards=cards_text(view.visible_pile))
    else:
        text = w["pile_cards"].format(size=len(pile), top=pile[-1].code)
    return text + (w["frozen"] if view.board.pile_frozen else "")


_MOVE_ORDER = {k: i for i, k in enumerate(("draw", "pickup", "pass", "meld", "discard", "ask", "answer"))}
#: Moves listed under one verb, each by what follows it (`meld: 3) [5S 5D JK]  4) ...`).
_GROUPED = ("meld", "discard")


def ordered_moves(legal: Sequence[Action]) -> list[Action]:
    """The legal moves in the order a player looks for them: taking, melding, discarding (in hand
    order), asking."""
    def key(action: Action) -> tuple[int, int]:
        return _MOVE_ORDER[action.type], action.card.index if isinstance(action, Discard) else 0

    return sorted(legal, key=key)


def render_moves(moves: Sequence[Action], view: SeatView, lang: str = "en", width: int = 80) -> str:
    """The legal moves, numbered from 1, in paragraphs of `width` columns: the melds under one
    `meld:` and the discards under one `discard:`; asking partner says what it costs."""
    w = TEXTS[lang]
    if view.now.permission == "pending" and view.now.seat != view.seat:
        phase = w["phase_answer"]
    else:
        phase = w["phase_draw"] if view.now.phase == "draw" else w["phase_play"]
    lines = [w["moves"].format(phase=phase)]
    groups: list[tuple[str, list[str]]] = []
    for number, action in enumerate(moves, 1):
        text = action_text(action, lang)
        label = text.split(" ", 1)[0] if action.type in _GROUPED else ""
        if label:
            text = text.split(" ", 1)[1]
        elif isinstance(action, Ask):
            text = w["ask_cost"].format(ask=text, cost=w[f"ask_{view.rules.permission_mode}"])
        item = w["move"].format(number=number, action=text)
        if groups and groups[-1][0] == label:
            groups[-1][1].append(item)
        else:
            groups.append((label, [item]))
    for label, items in groups:
        lines += flow(f"  {label}: " if label else "  ", items, width)
    return "\n".join(lines)


def flow(lead: str, items: Sequence[str], width: int) -> list[str]:
    """`items` side by side after `lead`, two spaces apart, on lines of at most `width` columns
    (an item is never split unless it is wider than a line by itself)."""
    indent = " " * len(lead)
    lines: list[str] = []
    line, used = lead, False
    for item in items:
        if used and len(line) + 2 + len(item) > width:
            lines.append(line)
            line, used = indent, False
        line += ("  " if used else "") + item
        used = True
    lines.append(line)
    return [part for one in lines for part in wrap(one, width).split("\n")]


def wrap(text: str, width: int) -> str:
    """`text` with each line longer than `width` broken between words; a line's continuations are
    indented two more columns than it."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False)
    return "\n".join(out)


def render_deal_end(result: DealResult, deal: int, names: Names) -> str:
    """How the deal ended and each team's score by part (parts where every team has 0 left out)."""
    w, part_names = names.text, PART_TEXTS[names.lang]
    if result.went_out is None:
        how = w["stock_exhausted"]
    else:
        how = w["went_out_concealed" if result.concealed else "went_out"].format(
            name=names.seats[result.went_out])
    header = [w["breakdown_part"], *names.teams]
    rows = [[part_names[part], *(f"{getattr(s, part):+d}" for s in result.scores)]
            for part in PARTS if any(getattr(s, part) for s in result.scores)]
    rows.append([part_names["total"], *(f"{s.total:+d}" for s in result.scores)])
    return w["deal_over"].format(deal=deal, how=how) + "\n" + format_table(header, rows)


def render_sheet(results: Sequence[DealResult], totals: Sequence[int], names: Names) -> str:
    """The score sheet: each deal's scores, then the cumulative totals."""
    w = names.text
    rows = [[str(i), *(f"{s.total:+d}" for s in r.scores)] for i, r in enumerate(results, 1)]
    rows.append([w["sheet_total"], *(str(t) for t in totals)])
    return w["sheet"] + "\n" + format_table([w["sheet_deal"], *names.teams], rows)


def final_scores(totals: Sequence[int], names: Names) -> str:
    return ", ".join(f"{n} {t}" for n, t in zip(names.teams, totals, strict=True))


def drawn_text(before: Sequence[Card], after: Sequence[Card]) -> str:
    """The cards in `after` that were not in `before` (what the player drew or took)."""
    return hand_text(sorted_cards((Counter(after) - Counter(before)).elements()))
