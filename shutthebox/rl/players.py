"""Shut the Box for 2 to 8 players as a PettingZoo AEC environment (``shutthebox_v0``; docs/RL.md).

Player ``k``'s turn depends only on its position, the best score posted before it and how many players
share it (docs/SHUTTHEBOX.md), which is how the table is indexed. A move's value is the table's value of
the position it leaves; the value of throwing one die or all (an optional one-die rule) weighs each roll's
best move, and the rolls no move fits by what ending the turn there is worth: 0 unless the score leads, else
the leaders' share once the later players have played their turns by the table's moves (worked out from
the table when first needed).
"""

from __future__ import annotations

import numpy as np

from ..engine.notation import format_set
from ..games.shutthebox.rules import Rules
from ..games.shutthebox.table import load
from ._aec import ExactAEC
from ._base import Decision, cached
from ._box import CHOOSING, BoxModel, game_of, rule_words, rules_fields, throw

_MODELS: dict = {}
_WHOLE_LIMIT = 64 << 20  # arrays up to this many bytes are read whole; larger ones block by block


def _array(tablefile, name):
    if name not in tablefile.arrays:
        return None
    count = 1
    for size in tablefile.shapes[name]:
        count *= size
    return tablefile.whole(name) if count * 8 <= _WHOLE_LIMIT else tablefile.arrays[name]


class PlayersModel(BoxModel):
    more = True

    def __init__(self, rules, players: int):
        self.players = players
        self.table = table = load(rules=rules, players=players)
        super().__init__(rules)
        self.scores = rules.max_score + 1
        file = table.file
        if players == 2:
            self.e1, self.e2 = _array(file, "e1"), _array(file, "e2")
            self.m1, self.m2 = _array(file, "m1"), _array(file, "m2")
            self.c1, self.c2 = _array(file, "c1"), _array(file, "c2")
        else:
            self.e, self.m, self.c = _array(file, "e"), _array(file, "m"), _array(file, "c")
        self._shares: dict = {}

    # -- the table, by turn (player, best, shared) -------------------------------------------------

    def _row(self, player: int, best: int, shared: int) -> int:
        if player == 1:
            return 0
        return 1 + (self.scores - 1) * ((player - 1) * (player - 2) // 2 + shared - 1) + best - 1

    def value(self, turn, position: int) -> float:
        """The mover's expected wins before throwing at ``position`` (1 once shut)."""
        if not position:
            return 1.0
        player, best, shared = turn
        if self.players == 2:
            return self.e1[position] if player == 1 else self.e2[position * self.scores + best]
        return self.e[self._row(player, best, shared) * self.positions + position]

    def move(self, turn, position: int, roll: int) -> int:
        player, best, shared = turn
        if self.players == 2:
            if player == 1:
                return self.m1[position * self.width + roll]
            return self.m2[(position * self.scores + best) * self.width + roll]
        return self.m[(self._row(player, best, shared) * self.positions + position) * self.width + roll]

    def dice(self, turn, position: int) -> int:
        """The dice the table throws at ``position`` (the only choice unless one die is optional)."""
        choices = self.choices[position]
        if len(choices) == 1:
            return choices[0]
        player, best, shared = turn
        if self.players == 2:
            return self.c1[position] if player == 1 else self.c2[position * self.scores + best]
        return self.c[self._row(player, best, shared) * self.positions + position]

    # -- what ending a turn is worth ---------------------------------------------------------------

    def outcomes(self, turn) -> dict:
        """{score: chance} of a whole turn played by the table's moves from every tile open (0: shut)."""
        outcomes_count = self.rules.outcomes
        mass = [0.0] * self.positions
        mass[self.positions - 1] = 1.0
        out: dict = {}
        for position in range(self.positions - 1, 0, -1):
            here = mass[position]
            if not here:
                continue
            legal = self.legal(position)
            for roll, weight in self.weights[self.dice(turn, position)].items():
                chance = here * weight / outcomes_count
                if roll in legal:
                    after = position ^ self.move(turn, position, roll)
                    if after:
                        mass[after] += chance
                    else:
                        out[0] = out.get(0, 0.0) + chance
                else:
                    out[self.sums[position]] = out.get(self.sums[position], 0.0) + chance
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
            for score, chance in sorted(self.outcomes((player + 1, best, shared)).items()):
                if score > best:
                    found += chance * self.share(player + 1, best, shared)
                elif score == best:
                    found += chance * self.share(player + 1, best, shared + 1)
            self._shares[key] = found
        return found

    def end(self, turn, score: int) -> float:
        player, best, shared = turn
        if player == 1 or score < best:
            return self.share(player, score, 1)
        if score == best:
            return self.share(player, best, shared + 1)
        return 0.0

    # -- decisions ---------------------------------------------------------------------------------

    def decide(self, state, exact: bool) -> Decision:
        turn, position, roll = state
        if roll:
            moves = self.legal(position).get(roll, ())
            if not exact:
                return Decision(self.n_actions, dict.fromkeys(moves, 0.0), True, exact=False)
            return Decision(self.n_actions, {move: self.value(turn, position ^ move) for move in moves}, True,
                            table_move=self.move(turn, position, roll))
        # before throwing, one die optional: throw all (action ``throw``) or one (``throw + 1``)
        if not exact:
            return Decision(self.n_actions, dict.fromkeys(map(self.throw_action, self.choices[position]), 0.0), True,
                            exact=False)
        values = self.throw_values(position, lambda after: self.value(turn, after),
                                   lambda: self.end(turn, self.sums[position]))
        return Decision(self.n_actions, values, True, value=self.value(turn, position),
                        table_move=self.throw_action(self.dice(turn, position)))


def model(rules, players: int) -> PlayersModel:
    return cached(_MODELS, (rules, players), lambda: PlayersModel(rules, players), model_of,
                  (rules_fields(rules), players))


def model_of(fields: tuple, players: int) -> PlayersModel:
    """The model of the rules ``Rules(*fields)`` (how a pickled model comes back)."""
    return model(Rules(*fields), players)


class ShutTheBoxPlayersEnv(ExactAEC):
    """Shut the Box for 2 to 8 players (PettingZoo AEC): ``shutthebox_v0.env(players=3, tiles=10)``.

    Options as the command line takes them: ``players`` (2-8), ``tiles`` (1-12), ``dice`` (1-4), ``sides``
    (2-20), ``one_die`` (``--one-die``: ``"never"``, ``6``, ``"high"``, ``"6,high"``, ``"optional:6"``, ...),
    ``max_move_tiles``. A table not shipped is solved on first use and cached, as the command does.

    Players ``player_0`` .. take whole turns in order. A turn throws the dice, closes tiles whose sum is the
    roll, throws again, until no move fits: the open tiles' sum is the player's score. Shutting the box wins
    at once; after the last turn the lowest score wins, a tie sharing the win.

    - **Actions**: ``Discrete(2 ** tiles)``, plus 2 when one die is optional: ``a < 2 ** tiles`` closes the
      tiles of its bits (bit ``i``: tile ``i + 1``); ``2 ** tiles`` throws all the dice, ``2 ** tiles + 1``
      one die (only before a throw where the rules let the player choose).
    - **Observation** ``["observation"]``: ``MultiDiscrete([2] * tiles + [max_roll + 1, players, players] +
      [max_score + 1] * players)``: the mover's open tiles (1 open), the roll showing (0: the dice are to be
      chosen), the seat to move, the observer's own seat, each seat's posted score (0: not yet posted).
      ``["action_mask"]``: the legal actions (int8), all zeros for an agent not to move.
    - **Reward**: at the end, 1 to the winner, 0 to the others; ``k`` tied leaders get ``1/k`` each (0.5 in a
      two-player tie).
    - **Info** of the agent to move: ``q_values`` (each legal action's expected wins: a move's is the table's
      value of the position it leaves, ``--scores ... --expect``; -inf where illegal), ``optimal_actions``
      (the table's ``--move`` among them), ``regret`` (of the agent's last action, in expected wins),
      ``illegal``. Other agents: ``action_mask`` (zeros), their last ``regret`` and ``illegal``.
    """

    def __init__(self, players: int = 2, tiles=None, dice=None, sides=None, one_die=None, max_move_tiles=None,
                 render_mode: str | None = None, exact_info: bool = True):
        rules, players = game_of(players, tiles, dice, sides, one_die, max_move_tiles)
        found = model(rules, players)
        self.players = players
        self.metadata = dict(self.metadata, name="shutthebox_v0")
        nvec = [2] * rules.tiles + [rules.max_roll + 1, players, players] + [rules.max_score + 1] * players
        state_nvec = nvec[:rules.tiles + 2] + nvec[rules.tiles + 3:]
        super().__init__(found, players, nvec, state_nvec, render_mode, exact_info)
        self.position, self.roll, self.posted = rules.all_open, 0, []

    @property
    def rules(self):
        return self.model.rules

    # -- the game ----------------------------------------------------------------------------------

    def start_value(self, seat: int) -> float:
        """The exact expected wins of ``seat`` (0 first) at the start of a game, before any dice, every player
        playing the table's moves: the chances of the best score posted before its turn (and how many share
        it), from the earlier players' whole turns, weighted by its value before its first throw."""
        model = self.model
        start = model.rules.all_open
        before = {(0, 0): 1.0}  # (best posted, how many share it): chance, before player seat + 1
        for player in range(1, seat + 1):
            after: dict = {}
            for (best, shared), chance in before.items():
                turn = (player, best, shared) if player > 1 else (1, 0, 0)
                for score, p in model.outcomes(turn).items():
                    if not score:  # shut: the game is over, the later seats win nothing
                        continue
                    if player == 1 or score < best:
                        key = (score, 1)
                    elif score == best:
                        key = (best, shared + 1)
                    else:
                        key = (best, shared)
                    after[key] = after.get(key, 0.0) + chance * p
            before = after
        if seat == 0:
            return model.value((1, 0, 0), start)
        return sum(chance * model.value((seat + 1, best, shared), start) for (best, shared), chance in before.items())

    def _turn(self):
        posted = self.posted
        if not posted:
            return (1, 0, 0)
        best = min(posted)
        return (len(posted) + 1, best, posted.count(best))

    def _throw(self, dice: int):
        """Throw ``dice`` dice at the current position: the final rewards if the turn (and the game) ends
        there, else None."""
        self.roll = throw(self.dice.die, self.rules.sides, dice)
        if self.roll in self.model.legal(self.position):
            self._key = (self._turn(), self.position, self.roll)
            return None
        return self._end_turn()

    def _ready(self):
        """Before a throw: the dice choice waits for the player, else the dice are thrown."""
        choices = self.model.choices[self.position]
        if len(choices) > 1:
            self.roll = 0
            self._key = (self._turn(), self.position, 0)
            return None
        return self._throw(choices[0])

    def _end_turn(self):
        self.posted.append(self.model.sums[self.position])
        if len(self.posted) == self.players:
            best = min(self.posted)
            leaders = self.posted.count(best)
            return [1.0 / leaders if score == best else 0.0 for score in self.posted]
        self.seat += 1
        self.position = self.rules.all_open
        return self._ready()

    def _start(self):
        self.seat, self.posted, self.position = 0, [], self.rules.all_open
        return self._ready()

    def _play(self, action: int):
        if action >= self.model.throw:
            return self._throw(self.model.dice_of(action))
        self.position ^= action
        if not self.position:
            self.roll = 0
            return [1.0 if seat == self.seat else 0.0 for seat in range(self.players)]
        return self._ready()

    def _observe(self, seat: int) -> np.ndarray:
        position = self.position
        scores = self.posted + [0] * (self.players - len(self.posted))
        return np.array([position >> i & 1 for i in range(self.rules.tiles)] + [self.roll, self.seat, seat] + scores,
                        dtype=np.int64)

    def _global(self) -> np.ndarray:
        observation = self._observe(0)
        return np.delete(observation, self.rules.tiles + 2)

    def _board(self) -> list:
        tiles = [("tile", str(i + 1), self.position >> i & 1) for i in range(self.rules.tiles)]
        rules, scores = self.rules, []  # each seat's posted score, the seat to move light
        for seat in range(self.players):
            posted = self.posted[seat] if seat < len(self.posted) else None
            scores.append(("tile", "-" if posted is None else str(posted), seat == self.seat, len(str(rules.max_score))))
        roll = ("text", str(self.roll) if self.roll else "-", len(str(rules.max_roll)))
        return [tiles, [("text", "roll"), roll, ("text", "p%d" % self.seat, len("p%d" % (self.players - 1)))], scores]

    def question(self) -> list:
        """The command line's words for the mover's position."""
        rules = self.rules
        words = ["--players", str(self.players)] + rule_words(rules)
        words += ["--scores", ",".join(map(str, self.posted))] if self.posted else ["--one"]
        position = format_set(self.position, rules.tiles)
        return words + (["--move", position, str(self.roll)] if self.roll else ["--expect", position])

    def _words(self) -> str:
        if all(self.terminations.values()) and self.agents:
            if not self.position:
                return "player_%d shut the box" % self.seat
            return "scores %s" % ", ".join(map(str, self.posted))
        posted = " (posted %s)" % ",".join(map(str, self.posted)) if self.posted else ""
        if self.roll:
            return "player_%d: open %s, roll %d%s   (ShutTheBox %s)" % (
                self.seat, format_set(self.position, self.rules.tiles), self.roll, posted, " ".join(self.question()))
        return "player_%d: open %s, %s%s   (ShutTheBox %s)" % (
            self.seat, format_set(self.position, self.rules.tiles), CHOOSING, posted, " ".join(self.question()))
