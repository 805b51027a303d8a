"""One deal as a stepwise game of integer actions, for learning code (OpenSpiel-style).

A `LearningGame` is a rule set (a preset plus options) and the cumulative scores before the
deal; its states start at the deal, a chance node per card of the deck (outcome: the card's
kind, with probability its share of the cards not yet dealt), or dealt at once from a seed.
After the deal every decision of the engine's `State.legal_actions()` is taken in atomic steps
(`canasta.learning.actions`): a draw, a discard, an ask or an answer is one id; a pickup or a
meld is formed id by id and applied by `COMMIT`. The ids legal while a step is being formed are
the next ids of the engine's listed actions that begin with the ids given so far, so every
listed action is reachable, every id leads on to one, and what the engine's list reaches (every
legal turn) the atomic steps reach too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import index
from typing import Any, SupportsIndex

from canasta.learning.actions import COMMIT, DISCARD, ActionSpace
from canasta.learning.observation import KINDS, PUBLIC_ROWS, ObservationLayout, describe
from canasta.rules import (
    ALL_CARDS,
    Action,
    Card,
    Discard,
    InvalidActionError,
    Meld,
    Pickup,
    Rank,
    RuleSet,
    State,
    legal_actions,
    make_deck,
    position_from_json,
    position_to_json,
    resample,
)
from canasta.rules.game import default_dealer
from canasta.rules.scoring import game_winner

CHANCE = -1
TERMINAL = -4
#: `returns()` are a team's deal score divided by this (so 1.0 is 1000 points).
POINTS_SCALE = 1000.0
STATE_FORMAT = "canasta-learning/1"
#: Atomic steps per card of the deck that bound a deal (see `LearningGame.max_game_length`).
STEPS_PER_CARD = 12
#: The deals after which a game episode ends even if no team has won (`episode="game"`).
MAX_DEALS = 20
#: Calls of `canasta.rules.resample` (each with its own random deals and search) that
#: `LearningState.resample` makes before it gives up: with a step being formed, a random hand
#: that can still finish it may be rare enough for one call to find none.
RESAMPLE_ROUNDS = 20

Candidate = tuple[tuple[int, ...], Action]
#: The public history's numbers per seat (`LearningState.public`).
_PUBLIC = len(PUBLIC_ROWS) * KINDS


class LearningGame:
    """A rule set and starting scores, with the fixed facts learning code asks about."""

    def __init__(
        self,
        variant: str = "classic",
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        scores: Sequence[int] | None = None,
        zero_sum: object = False,
        skip_forced: object = False,
        episode: str = "deal",
        max_deals: int = MAX_DEALS,
    ) -> None:
        if episode not in ("deal", "game"):
            raise InvalidActionError(f"episode must be 'deal' or 'game', not {episode!r}", "bad_field")
        if type(max_deals) is not int or max_deals < 1:
            message = f"max_deals must be a whole number from 1, not {max_deals!r}"
            raise InvalidActionError(message, "bad_field")
        #: An episode is one deal, or a game of deals until a team wins or `max_deals` are played.
        self.episode = episode
        self.max_deals = max_deals if episode == "game" else 1
        #: Returns as the difference from the teams' mean score (`returns`).
        self.zero_sum = _flag("zero_sum", zero_sum)
        #: A decision with a single legal id is played at once (`LearningState.forced`).
        self.skip_forced = _flag("skip_forced", skip_forced)
        self.rules = RuleSet.preset(variant, players, options)
        teams = self.rules.teams
        if scores is None:
            scores = [0] * teams
        if len(scores) != teams or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            message = f"scores must be {teams} whole numbers, not {list(scores)!r}"
            raise InvalidActionError(message, "bad_field")
        self.scores = tuple(scores)
        self.actions = ActionSpace(self.rules)
        deck = make_deck(self.rules.decks, self.rules.jokers)
        self.deck_counts = tuple(deck.count(c) for c in ALL_CARDS)
        self.observation = ObservationLayout(self.rules)

    @property
    def num_players(self) -> int:
        return self.rules.players

    @property
    def num_distinct_actions(self) -> int:
        return self.actions.size

    @property
    def max_chance_outcomes(self) -> int:
        return len(ALL_CARDS)

    @property
    def max_game_length(self) -> int:
        """A bound on the atomic decisions of a deal (chance nodes not counted).

        A turn draws a card from the stock or melds the pile's top card, so a deal has at most
        two turns per card of the deck; a turn takes at most five single ids (draw or take,
        commit, ask, answer, discard), and each meld adds at least one card to the table for
        its ids (a group and a commit): `STEPS_PER_CARD` (12) ids per card of the deck.
        """
        return STEPS_PER_CARD * self.rules.deck_size * self.max_deals

    @property
    def observation_shape(self) -> tuple[int]:
        return (self.observation.size,)

    def bounds(self) -> tuple[float, float]:
        """Bounds of `returns()` (scaled points) that hold in this rule set (`team_bounds`;
        with `zero_sum`, the widest difference from the mean that they allow)."""
        low, high = (bound * self.max_deals for bound in self.team_bounds())
        if not self.zero_sum:
            return low / POINTS_SCALE, high / POINTS_SCALE
        teams = self.rules.teams
        widest = (high - low) * (teams - 1) / teams * max(self._shares)
        return -widest / POINTS_SCALE, widest / POINTS_SCALE

    def team_bounds(self) -> tuple[int, int]:
        """Bounds of a team's deal score: at most every meldable card's points on its melds, a
        canasta of the highest bonus per meld rank (as many as the cards allow), every bonus
        three and going out; at least every card in its hands, every bonus three against it and,
        in Modern American, melds counted against it and every penalty (R27)."""
        rules = self.rules
        counts = list(zip(ALL_CARDS, self.deck_counts, strict=True))
        meldable = [(c, n) for c, n in counts if not rules.is_bonus_three(c)]
        cards = sum(c.points * n for c, n in meldable)
        kinds = sum(n for c, n in meldable)
        ranks = {c.rank for c, _ in meldable if not c.is_wild} | {Rank.WILD}
        bonus = max(rules.canasta_bonus_natural, rules.canasta_bonus_mixed, rules.canasta_bonus_wild)
        if rules.special_canasta_bonuses:
            bonus = max(bonus, 3000)
        bonus_threes = sum(n for c, n in counts if rules.is_bonus_three(c))
        threes = 2 * rules.red_three_score(bonus_threes)
        out = max(rules.go_out_bonus, rules.concealed_total)
        high = cards + bonus * min(kinds // 7, len(ranks)) + threes + out
        hand = sum(max(c.points, rules.black3_hand_value) * n for c, n in counts)
        low = -hand - threes
        if rules.end_penalties == "modern":
            seats = max(self._team_seats)
            low -= cards + 3 * 2500 + 2 * 1500 * seats
        return low, high

    def observation_bounds(self) -> tuple[list[float], list[float]]:
        """Bounds of each number of the observation tensor: counts (and every flag) from 0 to
        the deck's size, a team's total within what `team_bounds` allows over the episode."""
        size = self.observation.size
        low, high = [0.0] * size, [float(self.rules.deck_size)] * size
        offset, (teams, _) = self.observation.pieces["teams"]
        worst, best = self.team_bounds()
        for t in range(teams):
            low[offset + 3 * t + 1] = (min(self.scores) + self.max_deals * worst) / POINTS_SCALE
            high[offset + 3 * t + 1] = (max(self.scores) + self.max_deals * best) / POINTS_SCALE
        return low, high

    @property
    def _team_seats(self) -> list[int]:
        """How many seats each team has."""
        teams = self.rules.teams
        return [len(range(t, self.rules.players, teams)) for t in range(teams)]

    @property
    def _shares(self) -> list[float]:
        """Per team, what each of its seats receives of its zero-sum return (so that the seats'
        returns add up to 0 when teams differ in size)."""
        mean = self.rules.players / self.rules.teams
        return [mean / n for n in self._team_seats]

    def new_initial_state(self, seed: int | None = None) -> LearningState:
        """The deal's first chance node; with `seed`, the deal `Game.new(..., seed=seed)` deals."""
        state = LearningState(self)
        if seed is not None:
            state.seed = seed
            state.deal(seeded_deck(self.rules, seed, 0))
            if self.skip_forced:
                state.play_forced()
        return state

    def options_json(self) -> dict[str, Any]:
        """The game's parameters (`zero_sum` and `skip_forced` only when set)."""
        out = {
            "variant": self.rules.variant,
            "players": self.rules.players,
            "options": self.rules.to_options(),
            "scores": list(self.scores),
        }
        for name in ("zero_sum", "skip_forced"):
            if getattr(self, name):
                out[name] = True
        if self.episode == "game":
            out.update(episode="game", max_deals=self.max_deals)
        return out

    def state_from_json(self, obj: Any) -> LearningState:
        """A state written by `LearningState.to_json` for this game."""
        return LearningState.from_json(obj, self)


class LearningState:
    """A deal in atomic steps: the chance nodes of the deal, then the engine's `State`."""

    __slots__ = (
        "_legal",
        "_simple",
        "candidates",
        "deals",
        "deck",
        "forced",
        "game",
        "history",
        "kinds",
        "public",
        "remaining",
        "scores",
        "seed",
        "staged",
        "state",
    )

    def __init__(self, game: LearningGame) -> None:
        self.game = game
        self.deck: list[Card] = []
        self.remaining = list(game.deck_counts)
        #: The card kinds not yet all dealt, ascending.
        self.kinds = [i for i, n in enumerate(self.remaining) if n]
        self.state: State | None = None
        #: The ids of the step being formed, and the listed actions that begin with them.
        self.staged: tuple[int, ...] = ()
        self.candidates: list[Candidate] = []
        #: The player actions since the deal (every one is seen by every seat).
        self.history: list[int] = []
        #: Where in `history` an id was played for the agent (`skip_forced`: it was the only one).
        self.forced: list[int] = []
        #: The deals played before this one in a game episode, the teams' totals before it, and
        #: the seed its decks are shuffled with (None: the deals are chance nodes).
        self.deals = 0
        self.scores = game.scores
        self.seed: int | None = None
        #: The public history of the deal: per seat, the cards it discarded, took with the pile
        #: and melded, counted by kind (`canasta.learning.observation.PUBLIC_ROWS`).
        self.public = [0] * (game.rules.players * _PUBLIC)
        self._legal: list[int] | None = None
        self._simple: dict[int, Action] = {}

    # -- the deal -------------------------------------------------------------------------------

    def deal(self, deck: Sequence[Card]) -> None:
        """Deal from an explicit deck (index 0 the top card), ending the chance nodes."""
        if self.state is not None:
            raise InvalidActionError("the deal has already been dealt", "deal_over")
        if list(deck[: len(self.deck)]) != self.deck:
            raise InvalidActionError("the deck does not begin with the cards dealt so far", "bad_deck")
        rules = self.game.rules
        dealer, sitting_out = default_dealer(rules, self.deals)
        self.state = State.deal(rules, deck, dealer, self.scores, sitting_out)
        self.deck = []
        self.remaining = [0] * len(ALL_CARDS)
        self.kinds = []
        self._legal = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the deck: (card kind, probability) for each kind left."""
        if self.state is not None:
            return []
        left = self.game.rules.deck_size - len(self.deck)
        remaining = self.remaining
        return [(i, remaining[i] / left) for i in self.kinds]

    # -- queries --------------------------------------------------------------------------------

    @property
    def engine(self) -> State:
        """The engine's state of the deal (once dealt)."""
        if self.state is None:
            raise InvalidActionError("the deal has not been dealt yet", "no_deal")
        return self.state

    def current_player(self) -> int:
        state = self.state
        if state is None:
            return CHANCE
        if state.is_over:
            return TERMINAL
        return state.to_move

    def is_chance_node(self) -> bool:
        return self.state is None

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_over

    def legal_actions(self) -> list[int]:
        """The legal ids, ascending (chance nodes: the card kinds left)."""
        if self._legal is None:
            self._list()
        assert self._legal is not None
        return self._legal[:]

    def legal_actions_mask(self) -> list[int]:
        """1 for each legal id, 0 for the others, `num_distinct_actions` long."""
        mask = [0] * self.game.actions.size
        for a in self.legal_actions() if self.state is not None else ():
            mask[a] = 1
        return mask

    def _list(self) -> None:
        state = self.state
        if state is None:
            self._legal = self.kinds
            return
        if self.staged:
            depth = len(self.staged)
            self._legal = sorted({seq[depth] for seq, _ in self.candidates})
            return
        simple: dict[int, Action] = {}
        compound: list[Candidate] = []
        ids: list[int] = []
        space = self.game.actions
        for action in legal_actions(state):
            if type(action) is Discard:
                first = DISCARD + action.card.index
                simple[first] = action
            elif type(action) is Meld or type(action) is Pickup:
                seq = space.sequence(action)
                compound.append((seq, action))
                first = seq[0]
            else:
                first = space.sequence(action)[0]
                simple[first] = action
            ids.append(first)
        ids.sort()
        if compound:  # several listed actions may begin with one id
            ids = [a for i, a in enumerate(ids) if not i or a != ids[i - 1]]
        self._simple = simple
        self.candidates = compound
        self._legal = ids

    def returns(self) -> list[float]:
        """Each seat's team's deal score / `POINTS_SCALE` once the deal is over, else zeros (a
        game episode: the points the team won in its deals, once the game is over).
        With `zero_sum`, the team's score less the teams' mean, shared so that the seats'
        returns add up to 0."""
        game = self.game
        state = self.state
        if state is None or state.result is None:
            return [0.0] * game.rules.players
        won = zip(self._totals(), game.scores, strict=True)
        totals = [(total - before) / POINTS_SCALE for total, before in won]
        teams = game.rules.teams
        if game.zero_sum:
            mean = sum(totals) / teams
            totals = [(v - mean) * share for v, share in zip(totals, game._shares, strict=True)]
        return [totals[seat % teams] for seat in range(game.rules.players)]

    # -- playing --------------------------------------------------------------------------------

    def apply_action(self, action_id: SupportsIndex) -> None:
        """Apply a legal id; an illegal one raises `ValueError` and changes nothing."""
        try:
            number = index(action_id)
        except TypeError:
            raise ValueError(f"an action id is a whole number, not {action_id!r}") from None
        self._apply(number)
        if self.game.episode == "game":
            self._next_deal()
        if self.game.skip_forced:
            self.play_forced()

    def play_forced(self) -> None:
        """Play every decision that has a single legal id, recording it in `forced`."""
        while self.state is not None and not self.state.is_over:
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self.forced.append(len(self.history))
            self._apply(legal[0])
            if self.game.episode == "game":
                self._next_deal()

    def _next_deal(self) -> None:
        """In a game episode, once a deal is over and the game goes on, begin the next deal."""
        state, game = self.state, self.game
        if state is None or state.result is None:
            return
        totals = self._totals()
        if game_winner(game.rules, totals) is not None or self.deals + 1 >= game.max_deals:
            return
        self.scores = tuple(totals)
        self.deals += 1
        self.state = None
        self.deck = []
        self.remaining = list(game.deck_counts)
        self.kinds = [i for i, n in enumerate(self.remaining) if n]
        self.history = []
        self.forced = []
        self.public = [0] * len(self.public)
        self._legal = None
        if self.seed is not None:
            self.deal(seeded_deck(game.rules, self.seed, self.deals))

    def _totals(self) -> list[int]:
        """The teams' totals once the deal is over."""
        assert self.state is not None and self.state.result is not None
        return [s + part.total for s, part in zip(self.scores, self.state.result.scores, strict=True)]

    def _apply(self, action_id: int) -> None:
        if self._legal is None:
            self._list()
        if action_id not in self._simple and (self._legal is None or action_id not in self._legal):
            raise ValueError(self._refusal(action_id))
        state = self.state
        if state is None:
            self._deal_card(action_id)
            return
        self.history.append(action_id)
        self._legal = None
        if not self.staged:
            action = self._simple.get(action_id)
            if action is not None:
                if type(action) is Discard:
                    self.public[state.to_move * _PUBLIC + action.card.index] += 1
                state.apply_listed(action)
                return
        depth = len(self.staged)
        if action_id == COMMIT:
            for seq, action in self.candidates:
                if len(seq) == depth + 1:
                    self.staged = ()
                    self.candidates = []
                    self._record(state, action)
                    state.apply_listed(action)
                    return
        self.staged = (*self.staged, action_id)
        self.candidates = [c for c in self.candidates if c[0][depth] == action_id]
        self._simple = {}

    def _record(self, state: State, action: Action) -> None:
        """Count a meld's or pickup's cards in the public history (`public`)."""
        base = state.to_move * _PUBLIC
        melded = base + 2 * KINDS
        for group in action.melds if isinstance(action, Meld | Pickup) else ():
            for c in group.cards:
                self.public[melded + c.index] += 1
        if isinstance(action, Pickup):
            top = state.pile[-1]
            for c in (top, *action.with_):
                self.public[melded + c.index] += 1
            rules = state.rules
            for c in () if action.top_only else state.pile[:-1]:
                if not rules.is_bonus_three(c):
                    self.public[base + KINDS + c.index] += 1

    def _deal_card(self, kind: int) -> None:
        self.remaining[kind] -= 1
        if not self.remaining[kind]:
            self.kinds = [k for k in self.kinds if k != kind]
        self.deck.append(ALL_CARDS[kind])
        self._legal = None
        if len(self.deck) == self.game.rules.deck_size:
            self.deal(self.deck)

    def _refusal(self, action_id: int) -> str:
        space = self.game.actions
        if not 0 <= action_id < space.size:
            return f"action id {action_id!r} is outside 0..{space.size - 1}"
        if self.state is None:
            return f"no {ALL_CARDS[action_id].code} is left to deal" if action_id < len(ALL_CARDS) else (
                f"action id {action_id} is not a card kind (the deal is being dealt)"
            )
        if self.state.is_over:
            return "the deal is over"
        return f"{space.to_string(action_id)} is not legal here"

    def action_to_string(self, action_id: int) -> str:
        if self.state is None:
            return f"deal {ALL_CARDS[action_id].code}"
        return self.game.actions.to_string(action_id)

    def string_to_action(self, text: str) -> int:
        if self.state is None:
            words = text.split()
            if len(words) == 2 and words[0] == "deal":
                return Card.parse(words[1]).index
            raise ValueError(f"not a card of the deal: {text!r}")
        return self.game.actions.from_string(text)

    # -- observations ---------------------------------------------------------------------------

    def observation_tensor(self, seat: SupportsIndex, private: bool = True) -> list[float]:
        """What `seat` may know as numbers (`canasta.learning.observation`); without `private`,
        what every seat knows (no hand)."""
        return self.game.observation.tensor(self, self._seat(seat), private)

    def information_state_tensor(self, seat: SupportsIndex, private: bool = True) -> list[float]:
        """`observation_tensor` and the deal's public history: per seat, the cards it discarded,
        took with the pile and melded (`game.observation.info_pieces`)."""
        return self.game.observation.info_tensor(self, self._seat(seat), private)

    def observation_string(self, seat: SupportsIndex, private: bool = True) -> str:
        """What `seat` may know now, as text; without `private`, what every seat knows."""
        return describe(self, self._seat(seat), private)

    def _seat(self, seat: SupportsIndex) -> int:
        players = self.game.rules.players
        try:
            number = index(seat)
        except TypeError:
            number = -1
        if not 0 <= number < players:
            raise ValueError(f"seat {seat!r} is not a seat of this {players}-player game")
        return number

    def information_state_string(self, seat: SupportsIndex, private: bool = True) -> str:
        """`observation_string` and the ids played since the deal (all public; `*` marks an id
        played for the agent, `skip_forced`)."""
        ids = [str(a) for a in self.history]
        for i in self.forced:
            ids[i] += "*"
        return self.observation_string(seat, private) + "\nhistory: " + " ".join(ids)

    # -- copies and text ------------------------------------------------------------------------

    def _in_episode(self) -> LearningState:
        """A new state at the start of this one's deal of the episode (the deals before it, the
        totals, the seed)."""
        other = LearningState(self.game)
        other.deals, other.scores, other.seed = self.deals, self.scores, self.seed
        return other

    def clone(self) -> LearningState:
        other = self._in_episode()
        other.deck = self.deck[:]
        other.remaining = self.remaining[:]
        other.kinds = self.kinds
        other.state = self.state.clone() if self.state is not None else None
        other.staged = self.staged
        other.candidates = self.candidates
        other.history = self.history[:]
        other.forced = self.forced[:]
        other.public = self.public[:]
        other._legal = self._legal
        other._simple = self._simple
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> LearningState:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.game.options_json(), self.to_json()))

    def to_json(self) -> dict[str, Any]:
        """The state as JSON: the game's options, the deck so far or the position, the ids
        of the step being formed, and the ids since the deal."""
        out: dict[str, Any] = {"format": STATE_FORMAT, **self.game.options_json()}
        if self.state is None:
            out["deck"] = [c.code for c in self.deck]
        else:
            out["position"] = position_to_json(self.state)
        out["staged"] = list(self.staged)
        out["history"] = list(self.history)
        out["public"] = [[i, n] for i, n in enumerate(self.public) if n]
        if self.game.skip_forced:
            out["forced"] = list(self.forced)
        if self.game.episode == "game":
            out.update(deals=self.deals, totals=list(self.scores), seed=self.seed)
        return out

    @classmethod
    def from_json(cls, obj: Any, game: LearningGame) -> LearningState:
        """Read `to_json`'s form; malformed input raises `InvalidActionError`."""
        if not isinstance(obj, dict) or obj.get("format") != STATE_FORMAT:
            raise InvalidActionError(f"expected a {STATE_FORMAT} object", "bad_position")
        ours = game.options_json()
        theirs = {key: obj.get(key) for key in ours}
        if theirs != ours:
            raise InvalidActionError(f"the state is of another game ({theirs}, not {ours})", "bad_position")
        state = cls(game)
        history = obj.get("history", [])
        staged = obj.get("staged", [])
        forced = obj.get("forced", [])
        if not isinstance(forced, list) or not all(type(i) is int and 0 <= i < len(history) for i in forced):
            raise InvalidActionError("forced must be a list of places in the history", "bad_position")
        state.forced = forced
        state._read_public(obj.get("public", []))
        if game.episode == "game":
            state._read_episode(obj)
        size = game.actions.size
        for name, ids in (("history", history), ("staged", staged)):
            if not isinstance(ids, list) or not all(type(i) is int and 0 <= i < size for i in ids):
                raise InvalidActionError(f"{name} must be a list of action ids", "bad_position")
        if "position" in obj:
            state.state = position_from_json(obj["position"], "position", game.rules)
            state.remaining = [0] * len(ALL_CARDS)
            state.kinds = []
            try:
                state._restage(staged, history)
            except ValueError as exc:
                raise InvalidActionError(f"staged ids: {exc}", "bad_position") from None
        else:
            deck = obj.get("deck")
            if not isinstance(deck, list):
                raise InvalidActionError("a state being dealt needs its 'deck' so far", "bad_position")
            for code in deck:
                kind = Card.parse(code).index if isinstance(code, str) else -1
                if kind < 0 or not state.remaining[kind]:
                    raise InvalidActionError(f"the deck cannot hold another {code!r}", "bad_position")
                state._deal_card(kind)
        return state

    def _read_public(self, pairs: Any) -> None:
        """The public history of `to_json`'s form: [place, count] pairs."""
        size = len(self.public)
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) and 0 <= p[0] < size
            for p in pairs
        ):
            message = f"public must be a list of [place, count] pairs below {size}"
            raise InvalidActionError(message, "bad_position")
        for place, count in pairs:
            self.public[place] = count

    def _read_episode(self, obj: dict[str, Any]) -> None:
        """The episode's `deals`, `totals` and `seed` of `to_json`'s form."""
        deals, totals, seed = obj.get("deals"), obj.get("totals"), obj.get("seed")
        game = self.game
        if type(deals) is not int or not 0 <= deals < game.max_deals:
            raise InvalidActionError(f"deals must be a whole number below {game.max_deals}", "bad_position")
        teams = game.rules.teams
        if not isinstance(totals, list) or len(totals) != teams or any(type(t) is not int for t in totals):
            raise InvalidActionError(f"totals must be {teams} whole numbers", "bad_position")
        if seed is not None and type(seed) is not int:
            raise InvalidActionError("seed must be a whole number or null", "bad_position")
        self.deals, self.scores, self.seed = deals, tuple(totals), seed

    def _restage(self, staged: Sequence[int], history: Sequence[int]) -> None:
        """Form the step `staged` again, the ids since the deal being `history` (ending so)."""
        self.history = list(history[: len(history) - len(staged)])
        for action_id in staged:
            self._apply(action_id)
        self.history = list(history)

    def resample(self, seat: SupportsIndex, rng: random.Random) -> LearningState:
        """A state that `seat` cannot tell from this one, the cards it does not see dealt at
        random (`canasta.rules.resample`: cards known from a pickup stay in their hand; the
        turn's player holds the cards of the step being formed, and can finish it; up to
        `RESAMPLE_ROUNDS` calls)."""
        number = self._seat(seat)
        if self.state is None:
            deck = make_deck(self.game.rules.decks, self.game.rules.jokers)
            rng.shuffle(deck)
            other = self._in_episode()
            for card in deck[: len(self.deck)]:
                other._deal_card(card.index)
            return other
        formed: list[LearningState] = []

        def forms(state: State) -> bool:
            try:
                formed.append(self._formed(state))
            except ValueError:
                return False
            return True

        accept = forms if self.staged else None
        view, holding = self.state.view(number), self._holding()
        for attempt in range(RESAMPLE_ROUNDS):
            try:
                state = resample(view, rng, holding, accept)
                break
            except InvalidActionError:
                if attempt == RESAMPLE_ROUNDS - 1:
                    raise
        return formed[-1] if formed and formed[-1].state is state else self._formed(state)

    def _formed(self, state: State) -> LearningState:
        """`state` (the seat to move's own) with the step being formed staged again."""
        other = self._in_episode()
        other.state = state
        other.remaining = [0] * len(ALL_CARDS)
        other.kinds = []
        other._restage(self.staged, self.history)
        other.forced = self.forced[:]
        other.public = self.public[:]
        return other

    def _holding(self) -> list[tuple[Rank, int, int, int]]:
        """The cards of the step being formed, as `canasta.rules.resample`'s `holding`."""
        space = self.game.actions
        out = []
        for action_id in self.staged:
            if action_id >= space.group:
                out.append(space.groups[action_id - space.group])
            elif action_id >= space.take:
                top_only = action_id >= space.take_top
                k, j, t = space.take_counts[action_id - (space.take_top if top_only else space.take)]
                out.append((self.engine.pile[-1].rank, k, j, t))
        return out

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {len(self.deck)} of {self.game.rules.deck_size} cards"
        staged = " ".join(self.game.actions.to_string(a) for a in self.staged)
        return f"{position_to_json(self.state)}" + (f"\nstaged: {staged}" if staged else "")


def _flag(name: str, value: object) -> bool:
    """A game parameter that is true or false (any other value is refused)."""
    if not isinstance(value, bool):
        raise InvalidActionError(f"{name} must be true or false, not {value!r}", "bad_field")
    return value


def seeded_deck(rules: RuleSet, seed: int, index: int) -> list[Card]:
    """The deck of the deal with this index in the game `Game.new(..., seed=seed)` deals."""
    rng = random.Random(seed)
    for _ in range(index + 1):
        deck = make_deck(rules.decks, rules.jokers)
        rng.shuffle(deck)
    return deck


def _restore(options: dict[str, Any], obj: dict[str, Any]) -> LearningState:
    flags: dict[str, Any] = {name: bool(options.get(name)) for name in ("zero_sum", "skip_forced")}
    if options.get("episode") == "game":
        flags.update(episode="game", max_deals=options["max_deals"])
    variant, players = options["variant"], options["players"]
    game = LearningGame(variant, players, options["options"], options["scores"], **flags)
    return game.state_from_json(obj)
