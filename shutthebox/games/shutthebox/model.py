"""Shut the Box for 2 to 8 players as a game model (``engine/model.py``), its values read from the game's table;
and ``Box``, a rule set's actions, which the one-player environment shares.

A state is ``(seat to move, open tiles, roll, dice, score of seat 0, ..., of seat n - 1)``: roll r > 0 the mover's
move for r; dice d > 0 the chance node of throwing d dice (outcome: the roll); both 0 the choice of one die or
all (an optional one-die rule); a score 0 is not yet posted. A roll no move fits posts the open tiles' sum and
passes the turn. The game ends when the mover shuts the box (open tiles 0: the mover wins) or once every seat
has posted (the lowest score wins, a tie shared): the returns are win shares.

Actions: ``a < 2 ** tiles`` closes the tiles of its bits (bit ``i``: tile ``i + 1``), legal when they are open
and sum to the roll (and few enough under ``max_move_tiles``); with an optional one die two more,
``2 ** tiles`` throws all the dice and ``2 ** tiles + 1`` one die. Player k's turn depends only on its position,
the best score posted before it and how many share it (docs/SHUTTHEBOX.md), which is how the table is indexed:
a move's value is the table's value of the position it leaves; a choice of dice weighs each roll's best move,
and the rolls no move fits by what ending the turn there is worth (the leaders' share once the later players
have played by the table's moves).
"""

from __future__ import annotations

from typing import Any

from ...engine.model import CHANCE, TERMINAL, State
from ...engine.notation import format_set
from .rules import Rules, moves_by_roll, rule_words, tile_sums
from .table import load

PLAYERS = range(2, 9)  # the rules choose (``players``)
_MODELS: dict = {}
_WHOLE_LIMIT = 64 << 20  # arrays up to this many bytes are read whole; larger ones block by block


class Box:
    """A rule set's actions: the legal moves of each roll, the dice of each position, the value of a choice of
    dice."""

    def __init__(self, rules: Any) -> None:  # a Rules (its fields are set in its __init__)
        self.rules = rules
        self.n_actions = (1 << rules.tiles) + (2 if rules.one_die_optional else 0)
        self.throw = 1 << rules.tiles  # action: throw all the dice; throw + 1: one die
        self.positions, self.width = 1 << rules.tiles, rules.max_roll + 1
        self.sums = sums = tile_sums(rules.tiles)
        # the dice that may be thrown at each position, all of them first (two choices: the player's decision)
        self.choices = [rules.dice_choices(position, sums[position]) for position in range(self.positions)]
        self.weights = {dice: rules.roll_weights(dice) for dice in {1, rules.dice}}
        self._legal: dict = {}

    def legal(self, position: int) -> dict:
        """{roll: [moves]} at ``position``, best tie-break first."""
        found = self._legal.get(position)
        if found is None:
            found = self._legal[position] = moves_by_roll(self.rules, position, self.sums)
        return found

    def throw_action(self, dice: int) -> int:
        """The action that throws ``dice`` dice (a choice only where the rules offer one)."""
        return self.throw + (dice == 1)

    def dice_of(self, action: int) -> int:
        """The dice a throwing action throws."""
        return 1 if action == self.throw + 1 else self.rules.dice

    def throw_values(self, position: int, after, end, more: bool = True) -> dict:
        """{throwing action: value} of each choice of dice at ``position``: each roll's best move (the most, or
        the least where ``more`` is false) by ``after(position it leaves)``, a roll no move fits by ``end()``,
        weighed by the roll's chance."""
        best = max if more else min
        legal = self.legal(position)
        values = {}
        for dice in self.choices[position]:
            total = 0.0
            for roll, weight in self.weights[dice].items():
                moves = legal.get(roll)
                if moves:
                    total += weight * best(after(position ^ move) for move in moves)
                else:
                    total += weight * end()
            values[self.throw_action(dice)] = total / self.rules.outcomes
        return values


def model(rules: Any = None) -> "PlayersModel":
    """The model of ``(rules, players)`` (the table family's rules; default: the standard game, two players),
    made once per process; its table is read when a value is first asked."""
    rules, players = (Rules(), 2) if rules is None else rules
    found = _MODELS.get((rules, players))
    if found is None:
        found = _MODELS[rules, players] = PlayersModel(rules, players)
    return found


def _array(tablefile, name: str):
    if name not in tablefile.arrays:
        return None
    count = 1
    for size in tablefile.shapes[name]:
        count *= size
    return tablefile.whole(name) if count * 8 <= _WHOLE_LIMIT else tablefile.arrays[name]


class PlayersModel:
    """``engine.model.GameModel`` for Shut the Box under one rule set and number of players."""

    id = "shutthebox"
    min_return, max_return = 0.0, 1.0
    constant_sum = 1.0  # the returns are win shares

    def __init__(self, rules: Any, players: int) -> None:
        self.rules, self.players = rules, players
        self.box = box = Box(rules)
        self.n_actions, self.n_outcomes = box.n_actions, rules.max_roll + 1
        tiles = rules.tiles
        # a turn: a throw (and a choice of dice) before each move, and a last throw
        self.max_length = players * (3 * tiles + 2)
        self.observation_nvec = (2,) * tiles + (rules.max_roll + 1, players, players) + (rules.max_score + 1,) * players
        self.observer = tiles + 2  # the observation's field of the observer's own seat
        self.scores = rules.max_score + 1
        # a throw of d dice: its rolls' weights (of every outcome of all the dice, the same total for one die)
        self._throws = {dice: (sorted(weights.items()), rules.outcomes) for dice, weights in box.weights.items()}
        self._arrays: tuple | None = None
        self._shares: dict = {}
        self._futures: dict = {}
        self._valued: tuple = ((), {})  # the last decision's values

    def __reduce__(self):
        return (model, ((self.rules, self.players),))

    # -- the table, by turn (player 1 .. n, best score posted before it, how many share it) ------------------

    def arrays(self) -> tuple:
        """The table's values, moves and dice (``e1, e2, m1, ...`` for two players, ``e, m, c`` for more)."""
        if self._arrays is None:
            file = load(rules=self.rules, players=self.players).file
            names = ("e1", "e2", "m1", "m2", "c1", "c2") if self.players == 2 else ("e", "m", "c")
            self._arrays = tuple(_array(file, name) for name in names)
        return self._arrays

    def _row(self, player: int, best: int, shared: int) -> int:
        if player == 1:
            return 0
        return 1 + (self.scores - 1) * ((player - 1) * (player - 2) // 2 + shared - 1) + best - 1

    def table_value(self, turn: tuple, position: int) -> float:
        """The mover's expected wins before throwing at ``position`` (1 once shut)."""
        if not position:
            return 1.0
        player, best, shared = turn
        if self.players == 2:
            e1, e2 = self.arrays()[:2]
            return e1[position] if player == 1 else e2[position * self.scores + best]
        return self.arrays()[0][self._row(player, best, shared) * self.box.positions + position]

    def table_move(self, turn: tuple, position: int, roll: int) -> int:
        player, best, shared = turn
        width = self.box.width
        if self.players == 2:
            m1, m2 = self.arrays()[2:4]
            return m1[position * width + roll] if player == 1 else m2[(position * self.scores + best) * width + roll]
        return self.arrays()[1][(self._row(player, best, shared) * self.box.positions + position) * width + roll]

    def table_dice(self, turn: tuple, position: int) -> int:
        """The dice the table throws at ``position`` (the only choice unless one die is optional)."""
        choices = self.box.choices[position]
        if len(choices) == 1:
            return choices[0]
        player, best, shared = turn
        if self.players == 2:
            c1, c2 = self.arrays()[4:6]
            return c1[position] if player == 1 else c2[position * self.scores + best]
        return self.arrays()[2][self._row(player, best, shared) * self.box.positions + position]

    # -- turns played by the table's moves ----------------------------------------------------------------

    def finish(self, turn: tuple, position: int, roll: int = 0, dice: int = 0) -> dict:
        """{score: chance} of the mover's turn from ``position`` (a roll showing, or ``dice`` about to be thrown,
        or the table's dice), played by the table's moves (score 0: shut)."""
        box, outcomes = self.box, self.rules.outcomes
        mass = [0.0] * (position + 1)
        out: dict = {}

        def throw(at: int, chance: float, thrown: int) -> None:
            legal = box.legal(at)
            for rolled, weight in box.weights[thrown].items():
                if rolled in legal:
                    mass[at ^ self.table_move(turn, at, rolled)] += chance * weight / outcomes
                else:
                    out[box.sums[at]] = out.get(box.sums[at], 0.0) + chance * weight / outcomes

        if roll:
            mass[position ^ self.table_move(turn, position, roll)] += 1.0
        elif dice:
            throw(position, 1.0, dice)
        else:
            mass[position] = 1.0
        for at in range(position if not (roll or dice) else position - 1, 0, -1):  # a move leaves fewer tiles
            if mass[at]:
                throw(at, mass[at], self.table_dice(turn, at))
        if mass[0]:
            out[0] = out.get(0, 0.0) + mass[0]
        return out

    def share(self, player: int, best: int, shared: int) -> float:
        """Each leader's expected win once the players after ``player`` have played, the best score being
        ``best`` shared by ``shared`` players."""
        if player == self.players:
            return 1.0 / shared
        key = (player, best, shared)
        found = self._shares.get(key)
        if found is None:
            found = 0.0
            for score, chance in sorted(self.finish((player + 1, best, shared), self.rules.all_open).items()):
                if score > best:
                    found += chance * self.share(player + 1, best, shared)
                elif score == best:
                    found += chance * self.share(player + 1, best, shared + 1)
            self._shares[key] = found
        return found

    def end(self, turn: tuple, score: int) -> float:
        """What ending the mover's turn with ``score`` is worth to it."""
        player, best, shared = turn
        if player == 1 or score < best:
            return self.share(player, score, 1)
        if score == best:
            return self.share(player, best, shared + 1)
        return 0.0

    def future(self, seat: int, best: int, shared: int) -> tuple:
        """From the start of ``seat``'s turn, the earlier leaders (``shared`` of them at ``best``) each expecting
        the first, seats ``seat``.. the rest: ``(a leader's share, (each later seat's))``."""
        if seat == self.players:
            return 1.0 / shared, ()
        key = (seat, best, shared)
        found = self._futures.get(key)
        if found is None:
            leader, rest = 0.0, [0.0] * (self.players - seat)
            turn = (seat + 1, best, shared) if seat else (1, 0, 0)
            for score, chance in sorted(self.finish(turn, self.rules.all_open).items()):
                kept = self._after(seat, score, best, shared, chance, rest)
                leader += kept
            found = self._futures[key] = (leader, tuple(rest))
        return found

    def _after(self, seat: int, score: int, best: int, shared: int, chance: float, rest: list) -> float:
        """Add to ``rest`` (seats ``seat``..) what ``seat``'s turn ending with ``score`` gives them; the earlier
        leaders' share of it, returned."""
        if not score:  # shut: the mover wins at once
            rest[0] += chance
            return 0.0
        if not seat or score < best:
            leader, later = self.future(seat + 1, score, 1)
            rest[0] += chance * leader
            kept = 0.0
        elif score == best:
            leader, later = self.future(seat + 1, best, shared + 1)
            rest[0] += chance * leader
            kept = chance * leader
        else:
            leader, later = self.future(seat + 1, best, shared)
            kept = chance * leader
        for index, value in enumerate(later):
            rest[index + 1] += chance * value
        return kept

    # -- the game model -----------------------------------------------------------------------------------

    def _ready(self, seat: int, position: int, scores: tuple) -> State:
        choices = self.box.choices[position]
        return (seat, position, 0, 0 if len(choices) > 1 else choices[0]) + scores

    def turn(self, state: State) -> tuple:
        """``(player 1 .. n, the best score posted before it, how many share it)`` of the mover."""
        seat = state[0]
        if not seat:
            return (1, 0, 0)
        posted = state[4:4 + seat]
        best = min(posted)
        return (seat + 1, best, posted.count(best))

    def initial(self) -> State:
        return self._ready(0, self.rules.all_open, (0,) * self.players)

    def player(self, state: State) -> int:
        if not state[1] or state[-1]:  # shut, or every seat posted
            return TERMINAL
        return CHANCE if state[3] else state[0]

    def legal(self, state: State) -> list[int]:
        position, roll = state[1], state[2]
        if roll:
            return sorted(self.box.legal(position)[roll])
        return sorted(map(self.box.throw_action, self.box.choices[position]))

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return self._throws[state[3]]

    def apply(self, state: State, action: int) -> State:
        seat, position, roll, dice = state[:4]
        scores = state[4:]
        box = self.box
        if dice:  # the roll: a move, or the turn's end where none fits
            if action in box.legal(position):
                return (seat, position, action, 0) + scores
            scores = scores[:seat] + (box.sums[position],) + scores[seat + 1:]
            if seat + 1 == self.players:
                return (seat, position, action, 0) + scores  # over: every seat posted
            return self._ready(seat + 1, self.rules.all_open, scores)
        if not roll:
            return (seat, position, 0, box.dice_of(action)) + scores
        position ^= action
        return self._ready(seat, position, scores) if position else (seat, 0, 0, 0) + scores

    def returns(self, state: State) -> list[float]:
        if state[1] and not state[-1]:  # not over
            return [0.0] * self.players
        if not state[1]:
            return [float(seat == state[0]) for seat in range(self.players)]
        scores = state[4:]
        best = min(scores)
        leaders = scores.count(best)
        return [1.0 / leaders if score == best else 0.0 for score in scores]

    def decision_key(self, state: State) -> tuple:
        """What a decision depends on: the mover's turn (player, best score before it, how many share it), its
        open tiles and roll."""
        return (self.turn(state), state[1], state[2])

    def values(self, state: State) -> dict[int, float]:
        if state == self._valued[0]:  # asked again for the same decision (its value, its best): kept
            return self._valued[1]
        position, roll = state[1], state[2]
        turn = self.turn(state)
        if roll:
            values = {move: self.table_value(turn, position ^ move) for move in sorted(self.box.legal(position)[roll])}
        else:
            values = self.box.throw_values(position, lambda after: self.table_value(turn, after),
                                           lambda: self.end(turn, self.box.sums[position]))
        self._valued = (state, values)
        return values

    def _mover_value(self, state: State) -> float:
        position, roll, dice = state[1:4]
        if roll:
            return max(self.values(state).values())
        turn = self.turn(state)
        if not dice or dice == self.table_dice(turn, position):
            return self.table_value(turn, position)
        return self.values(state[:3] + (0,) + state[4:])[self.box.throw_action(dice)]

    def value_of(self, state: State, seat: int) -> float:
        """``value(state)[seat]``: the mover's from the table alone (the others' play out the turns to come)."""
        if seat == state[0] and self.player(state) != TERMINAL:
            return self._mover_value(state)
        return self.value(state)[seat]

    def value(self, state: State) -> list[float]:
        if self.player(state) == TERMINAL:
            return self.returns(state)
        seat, position, roll, dice = state[:4]
        turn = self.turn(state)
        _, best, shared = turn
        result = [0.0] * self.players
        rest = [0.0] * (self.players - seat)
        leaders = 0.0
        for score, chance in sorted(self.finish(turn, position, roll, dice).items()):
            leaders += self._after(seat, score, best, shared, chance, rest)
        for earlier in range(seat):
            if state[4 + earlier] == best:
                result[earlier] = leaders
        result[seat:] = rest
        result[seat] = self._mover_value(state)  # the table's own number
        return result

    def best(self, state: State) -> int:
        position, roll = state[1], state[2]
        turn = self.turn(state)
        if roll:
            return self.table_move(turn, position, roll)
        return self.box.throw_action(self.table_dice(turn, position))

    def observation(self, state: State, seat: int) -> list[int]:
        position, tiles = state[1], self.rules.tiles
        return [position >> i & 1 for i in range(tiles)] + [state[2], state[0], seat] + list(state[4:])

    def action_text(self, state: State, action: int) -> str:
        if action >= self.box.throw:
            return "throw %s" % ("one die" if self.box.dice_of(action) == 1 else "all the dice")
        return "shut %s" % format_set(action, self.rules.tiles)

    def outcome_text(self, state: State, outcome: int) -> str:
        return "roll %d" % outcome

    def state_text(self, state: State) -> str:
        seat, position, roll, dice = state[:4]
        posted = [score for score in state[4:] if score]
        if not position:
            return "player_%d shut the box" % seat
        if state[-1]:
            return "scores %s" % ", ".join(map(str, posted))
        tiles = "player_%d: open %s" % (seat, format_set(position, self.rules.tiles))
        said = " (posted %s)" % ",".join(map(str, posted)) if posted else ""
        if roll:
            return "%s, roll %d%s" % (tiles, roll, said)
        if dice:
            return "%s, %d di%s to throw%s" % (tiles, dice, "e" if dice == 1 else "ce", said)
        return "%s, throw one die or all%s" % (tiles, said)

    def question(self, state: State) -> list[str]:
        """The command line's words for the mover's position (``--move`` for a roll, else ``--expect``)."""
        seat, position, roll = state[:3]
        posted = state[4:4 + seat]
        words = ["--players", str(self.players)] + rule_words(self.rules)
        words += ["--scores", ",".join(map(str, posted))] if posted else ["--one"]
        tiles = format_set(position, self.rules.tiles)
        return words + (["--move", tiles, str(roll)] if roll else ["--expect", tiles])

    def board(self, state: State) -> list:
        """The picture's rows: the tiles, light while open; the roll and the seat to move; each seat's score."""
        seat, position, roll = state[:3]
        rules = self.rules
        tiles = [("tile", str(i + 1), position >> i & 1) for i in range(rules.tiles)]
        scores = [("tile", str(score) if score else "-", each == seat, len(str(rules.max_score)))
                  for each, score in enumerate(state[4:])]
        shown = ("text", str(roll) if roll else "-", len(str(rules.max_roll)))
        return [tiles, [("text", "roll"), shown, ("text", "p%d" % seat, len("p%d" % (self.players - 1)))], scores]
