"""Goat's questions on the command line.

    ShutTheBox goat --solo --expect 0 --dice 2 --stop-at 23     ->  8.783638
    ShutTheBox goat --one --move 0 0 11 1                       ->  roll 1
    ShutTheBox goat --duel 2,23 optimal                          ->  0.398872
    ShutTheBox goat --choose once --solo --move 0 14 1 3         ->  stop (3 dice kept for the turn)
"""

from ...engine.command import SHARED_HELP, RulesSession, looks_like_option, option_value, shown, whole, \
    wrong_count
from ...errors import InvalidQuery
from .rules import DEFAULT_GOAL, DICE, EACH, GOAL_LIMITS, MAX_GAIN, MAX_SUM, NEEDS, ONCE, OPTIONS, ROLLS, \
    THRESHOLDS, Rules, once_slot, once_totals, slot
from . import DECLARATION
from .table import action_text, load

HELP = """\
usage: ShutTheBox goat [--goal G] --solo --expect SCORE --dice K --stop-at T
       ShutTheBox goat [--goal G] --solo --expect SCORE [TURN ROLLS]
       ShutTheBox goat [--goal G] --solo --move SCORE TURN ROLLS
       ShutTheBox goat [--goal G] --one|--two --expect MY OPP [TURN ROLLS]
       ShutTheBox goat [--goal G] --one|--two --move MY OPP TURN ROLLS
       ShutTheBox goat [--goal G] --duel A B
       ShutTheBox goat [--goal G] --choose once QUESTION [DICE]
       ShutTheBox goat [--goal G] --batch < questions.txt
       ShutTheBox goat [--goal G] --rules
       ShutTheBox goat strategies [--games N] [--seed N] [--goal G]
       ShutTheBox goat report [--out DIR] [--games N] [--seed N] [--goal G]
       ShutTheBox goat turns [--goal G] [--dice K --stop-at T] [--max N]

Goat (an algorithms-course homework): before each roll the player puts 1 to 6
dice in the cup. If any two dice match, the turn ends with 0 points; otherwise
their sum is added to the turn total, and the player may roll again or stop and
bank it. A turn is at most 3 rolls. First to the goal (100).

questions:
  --solo --expect SCORE --dice K --stop-at T
        expected turns to the goal from banked SCORE, this turn counted, for
        the fixed strategy: K dice every roll, stop once the turn total
        reaches T or the goal (exact)
      $ ShutTheBox goat --solo --expect 0 --dice 2 --stop-at 23
      8.783638
  --solo --expect SCORE [TURN ROLLS]   the same, playing optimally; TURN is the
        turn total so far, ROLLS the rolls taken this turn (0 to 2)
      $ ShutTheBox goat --solo --expect 0
      8.497837
  --solo --move SCORE TURN ROLLS       the optimal action: roll K or stop
  --one --expect MY OPP [TURN ROLLS]   the first player's chance to win, to move
        with MY banked points against OPP (a tie is half a win)
  --two --expect MY OPP [TURN ROLLS]   the second player's; OPP at or above the
        goal: the first player has banked OPP and this is the last turn
  --one|--two --move MY OPP TURN ROLLS the optimal action: roll K or stop
  --duel A B    the chance that A, moving first, beats B from 0 to 0 (a tie is
        half a win); A and B are each K,T (the fixed strategy of --dice K
        --stop-at T, which ignores the other's score) or optimal (the moves
        --one/--two --move answer); computed when asked (under a second)
      $ ShutTheBox goat --duel 2,23 optimal
      0.398872

subcommands:
  strategies, report   every fixed strategy exactly and by Monte Carlo, the
        recommendation, the head-to-head table of the ten best
  turns [--dice K --stop-at T] [--max N]   the distribution of the number of
        turns of a solo game: a fixed strategy, or optimal play without them

Two players play rounds: the first player's turn, then the second's; after the
second's turn the game ends if either has reached the goal, the higher total
winning. Among equally good actions (within 1e-11) the first of stop, roll 1,
..., roll 6 is shown.

options:
  --goal G       the goal, %d to %d (default %d); goals other than 100 are
                 solved on first use (a few seconds) and cached
  --choose WORD  when the number of dice is chosen: each (before every roll,
                 the default) or once (before the turn's first roll, kept for
                 its rolls; solved on first use; strategies, report and turns
                 take it too). Under once a state after a roll says the dice
                 chosen: TURN ROLLS DICE (DICE 1 to 6, given exactly when ROLLS
                 is 1 or 2), e.g. --solo --move 40 11 1 2
""" % (GOAL_LIMITS[0], GOAL_LIMITS[1], DEFAULT_GOAL) + SHARED_HELP % "goat"

GAME_OPTIONS = OPTIONS
# Analysis commands: ``ShutTheBox goat WORD ...`` runs ``analysis.WORD_main(argv)`` (analysis time).
COMMANDS = ("strategies", "report", "turns")
_PLAYERS = {"--solo": 0, "--one": 1, "--two": 2}
_QUESTIONS = ("--expect", "--move")
_VALUED = ("--dice", "--stop-at")



_DUEL = "--duel"
_DUEL_FORM = "--duel A B, each K,T (dice, stop at turn total T) or optimal"


def parse_side(text: str):
    """``optimal`` or ``K,T`` -> "optimal" or (K, T) (T above THRESHOLDS plays as THRESHOLDS)."""
    if text == "optimal":
        return text
    dice, comma, stop = text.partition(",")
    if not comma or not dice or not stop:
        raise InvalidQuery("a duel side is K,T (dice, stop at turn total T) or optimal, not '%s'" % shown(text))
    k, t = whole("number of dice K", dice), whole("turn total T", stop)
    if not 1 <= k <= DICE:
        raise InvalidQuery("K is the number of dice, 1 to %d, not %d" % (DICE, k))
    if t < 1:
        raise InvalidQuery("T is the turn total to stop at, 1 or more, not %d" % t)
    return k, min(t, THRESHOLDS)


def parse_duel(tokens):
    """``["--duel", "2,23", "optimal"]`` -> ((2, 23), "optimal")."""
    if tokens[:1] != [_DUEL] or any(looks_like_option(word) for word in tokens[1:]):
        raise InvalidQuery("ask one question: %s alone (see --help)" % _DUEL_FORM)
    if len(tokens) != 3:
        raise wrong_count(_DUEL, "A B", tokens[1:])
    return parse_side(tokens[1]), parse_side(tokens[2])


def parse(tokens, once: bool = False):
    """-> (player 0/1/2, "--expect"/"--move", [numbers], {"--dice": K, "--stop-at": T}). ``once``: the dice are
    chosen once a turn, and a state after a roll may end in DICE (the table says when it must)."""
    players, questions, args, valued = [], [], [], {}
    words = iter(tokens)
    for word in words:
        if word.partition("=")[0] in _VALUED:
            name, value = option_value(word, words)
            if name in valued:
                raise InvalidQuery("%s is given twice" % name)
            valued[name] = whole(name[2:].replace("-", " ") if name == "--stop-at" else "number of dice", value)
        elif word in _PLAYERS:
            players.append(word)
        elif word in _QUESTIONS:
            questions.append(word)
        elif looks_like_option(word):
            raise InvalidQuery("unknown option '%s' (a goat question is --solo, --one or --two with --expect or "
                               "--move; see --help)" % shown(word))
        else:
            args.append(whole("number", word))
    if len(players) != 1 or len(questions) != 1:
        raise InvalidQuery("ask one question: --solo, --one or --two, with --expect or --move (see --help)")
    player, question = _PLAYERS[players[0]], questions[0]
    if valued and (player or question != "--expect" or len(valued) != 2):
        raise InvalidQuery("a fixed strategy is asked as --solo --expect SCORE --dice K --stop-at T")
    names = ("SCORE",) if player == 0 else ("MY", "OPP")
    if question == "--move" or len(args) > len(names):
        names += ("TURN", "ROLLS")
    if valued:
        names = ("SCORE",)
    if once and names[-1] == "ROLLS" and len(args) == len(names) + 1:
        return player, question, args, valued  # DICE: the table says when it must be given
    if len(args) != len(names):
        shown_names = " ".join(names) + (" [DICE]" if once and names[-1] == "ROLLS" else "")
        raise wrong_count("%s %s" % (players[0], question), shown_names, args, noun="number")
    return player, question, args, valued


class Session(RulesSession):
    FAMILY, RULES, load = DECLARATION.tables[0], Rules, staticmethod(load)

    def __init__(self, options: dict, table: str | None):
        super().__init__(options, table)
        self._optimal = None

    def answer(self, tokens) -> str:
        if _DUEL in tokens:
            return self.duel(*parse_duel(tokens))
        player, question, args, valued = parse(tokens, self.once())
        table = self.table()
        if valued:
            return "%.6f" % table.probe_fixed(args[0], valued["--dice"], valued["--stop-at"])
        if player == 0:
            if question == "--move":
                return action_text(table.probe_solo_move(*args))
            return "%.6f" % table.probe_solo(*args)
        if question == "--move":
            return action_text(table.probe_move(player, *args))
        return "%.6f" % table.probe_win(player, *args)

    def once(self) -> bool:
        """Whether the dice are chosen once a turn (a state after a roll then ends in DICE): the game options' rules,
        or with ``--table`` and no game option the file's own (the table is opened first: it answers anyway)."""
        rules = self.table().rules if self.path is not None and not self.options else self.rules
        return rules.choose == ONCE

    def duel(self, first, second) -> str:
        """Computed when asked, by the analysis-time module ``duel`` (numpy), imported only for this
        question; the optimal player's turn laws are kept for the next duel of a batch."""
        from .duel import OPTIMAL, Optimal, answer

        optimal = None
        if OPTIMAL in (first, second):
            if self._optimal is None:
                self._optimal = Optimal(self.table())
            optimal = self._optimal
        return "%.6f" % answer(self.table().rules.goal, first, second, optimal)

    def quick_answer(self):
        """Canonical batch lines answered straight from the whole arrays."""
        table = self.table()
        goal, arrays, width = table.rules.goal, table.arrays, table.slots
        numbers = {str(n): n for n in range(goal + MAX_GAIN)}  # canonical whole numbers only: "07" is not here
        # the words of a state after the scores -> slot: () and TURN ROLLS, or under --choose once TURN ROLLS DICE
        # after a roll, for every state those rolls can make (the rules' check_state, as a lookup)
        slots: dict = {(): 0, ("0", "0"): 0}
        for rolls in range(1, ROLLS):
            if table.rules.choose == EACH:
                for turn in range(rolls, rolls * MAX_SUM[DICE] + 1):
                    slots[str(turn), str(rolls)] = slot(rolls, turn)
            else:
                for dice in range(1, DICE + 1):
                    for turn in once_totals(rolls, dice):
                        slots[str(turn), str(rolls), str(dice)] = once_slot(rolls, turn, dice)
        last_opp = goal - 1 + MAX_GAIN  # the highest total the first player can bank

        players = {"--solo": 1, "--one": 2, "--two": 2}  # -> how many scores the question gives
        fixed, values = arrays["fixed"], {}
        moves = {name: arrays[name + "_move"] for name in ("solo", "one", "two", "last")}

        def quick(words):
            """The line's answer, or None (another path answers it); one function, no call a line: a batch
            answers hundreds of thousands of lines a second."""
            size = len(words)
            count = players.get(words[0]) if size >= 3 else None
            if count is None:
                return None
            question = words[1]
            if question == "--expect":
                if size == 7 and words[3] == "--dice" and words[5] == "--stop-at":
                    score, dice, stop = numbers[words[2]], numbers[words[4]], numbers[words[6]]
                    if count != 1 or score >= goal or not 1 <= dice <= DICE or stop < 1:
                        return None
                    return "%.6f" % fixed[((dice - 1) * THRESHOLDS + min(stop, THRESHOLDS) - 1) * goal + score]
            elif question != "--move" or size < 4 + count:
                return None
            # the state of --solo S [T R [D]] or --one|--two M O [T R [D]]
            here = slots[tuple(words[2 + count:])]
            my = numbers[words[2]]
            if my >= goal:
                return None
            if count == 1:
                name, index = "solo", my * width + here
            else:
                opp = numbers[words[3]]
                if opp < goal:
                    name, index = ("one" if words[0] == "--one" else "two"), (my * goal + opp) * width + here
                elif words[0] == "--one" or opp > last_opp:
                    return None
                else:
                    name, index = "last", (min(opp - my, NEEDS) - 1) * width + here
            if question == "--move":
                return action_text(moves[name][index])
            text = values.get((name, index))
            if text is None:
                text = values[name, index] = "%.6f" % arrays[name][index]
            return text

        return quick


def open_game(options: dict, table: str | None) -> Session:
    return Session(options, table)
