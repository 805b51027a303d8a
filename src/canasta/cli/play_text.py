"""Every text the terminal game (`canasta play`) shows, in one place (English)."""

from __future__ import annotations

from typing import Final

TEXT: Final[dict[str, str]] = {
    # seats and teams
    "you": "You",
    "seat": "Seat {seat}",
    "partner": "Seat {seat} (partner)",
    "your_team": "Your team",
    "team": "Team {team}",
    "team_seats": "{name} (seats {seats})",
    # the table
    "title": "=== Deal {deal} · {variant}, {players} players · game to {target} ===",
    "scores": "Scores   {entries}",
    "score_entry": "{team} {score} (opening minimum {minimum}{opened})",
    "opened": ", opened",
    "stock_pile": "Stock    {stock} · Pile {pile}",
    "pile_empty": "empty",
    "pile_cards": "{size}, top {top}",
    "pile_whole": "{size}: {cards}",
    "frozen": ", FROZEN",
    "melds": "Melds",
    "melds_team": "  {team}: {melds}",
    "no_melds": "(none)",
    "meld": "{rank} [{cards}] ({count})",
    "canasta_natural": " natural canasta",
    "canasta_mixed": " mixed canasta",
    "canasta_wild": " wild canasta",
    "threes": " · bonus threes {cards}",
    "hands": "Hands    {entries}",
    "hand_entry": "{name} {count}",
    "hand_known": "{name} {count} (known: {cards})",
    "sitting_out": "{name} sits out",
    "turn": "Turn     {name}{phase}",
    "phase_draw": ", to draw or take the pile",
    "phase_play": ", to meld and discard",
    "permission": "Asked    {asker} asks you for permission to go out",
    "your_hand": "Your hand ({count}): {cards}",
    # moves
    "moves": "Your moves:",
    "move": "{number:>3}) {action}",
    "prompt": "Your move (a number, an action like 'discard 9C', or 'help'): ",
    "drew": "You drew {cards}.",
    "took": "You took the pile: {cards}.",
    "bot_move": "{name}: {action}",
    "bot_took": "{name}: {action} (takes {count} cards)",
    "refused": "Refused: {message}",
    "bad_input": "Cannot read that: {message}",
    "bad_number": "There is no move {number}; choose 1 to {count}.",
    "help": (
        "Type the number of a listed move, or an action:\n"
        "  draw                      draw from the stock\n"
        "  pickup KS KH              take the pile, melding its top card with KS KH\n"
        "  pickup                    take the pile, adding its top card to your meld of that rank\n"
        "  pickup KS KH + QS QH QD   take the pile and lay further melds (for the opening minimum)\n"
        "  meld KS KH KD, 7S 7H 2C   lay melds or add to your team's melds (groups split by ',')\n"
        "  meld K:[2C]               add a wild card alone to your team's king meld\n"
        "  discard 9C                discard (ends your turn)\n"
        "  ask / yes / no            ask partner to go out / answer partner\n"
        "  pass                      decline the pile when the stock is exhausted\n"
        "Cards: rank A K Q J 10 (or T) 9..2, suit S H D C; JK is a joker. Also: 'table' shows the\n"
        "table again, 'scores' the score sheet, 'quit' leaves the game."
    ),
    # parsing typed actions
    "empty": "type a move",
    "unknown_verb": "unknown action {verb!r} (try 'help')",
    "one_card": "'discard' takes exactly one card",
    "no_groups": "'meld' needs at least one group of cards",
    "answer_word": "answer 'yes' or 'no'",
    "extra_words": "'{verb}' takes no cards",
    "bad_json": "not a JSON action: {message}",
    # end of a deal and of the game
    "deal_over": "Deal {deal} is over: {how}.",
    "went_out": "{name} went out",
    "went_out_concealed": "{name} went out concealed",
    "stock_exhausted": "the stock is exhausted",
    "breakdown_part": "part",
    "sheet": "Score sheet",
    "sheet_deal": "deal",
    "sheet_total": "total",
    "continue": "Press Enter for the next deal (or type 'quit'): ",
    "winner_you": "Your team wins the game, {score} points.",
    "winner": "{team} wins the game, {score} points.",
    "bye": "Game left. Final scores: {scores}.",
    "start": "{variant}, {players} players, to {target} (seed {seed}). You are seat 0; {others}.",
    "other_bot": "{name} plays {bot}",
}

#: Names of the parts of a deal's score (`canasta.rules.scoring.PARTS`, plus the total).
PART_NAMES: Final = {
    "cards": "cards melded",
    "canastas": "canastas",
    "threes": "bonus threes",
    "going_out": "going out",
    "hand": "cards in hand",
    "penalties": "penalties",
    "total": "deal total",
}
