"""A policy against the table's player in the PettingZoo environments: its win share and what it loses a game
against optimal play (docs/RL.md).

    from shutthebox.rl import evaluate
    report = evaluate(policy, "pig_v0", episodes=2000, seed=1)         # seats alternate; env options as keywords
    print(report)

The policy plays one seat, the table plays every other (its own move at each decision: ``goat --move``,
``pig --move``, ...). Each of the policy's decisions is scored exactly: its regret, what it cost in expected
wins against the best action. The loss per game is the regrets summed along a game, averaged over the games
(an unbiased estimate of what the policy loses a game against optimal play, with far less noise than the
results); for ``pig_v0`` the policy's exact win share is solved too (asked once in every state, its duel
with the table's player solved on the Pig solver's engine), and the loss is exact.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from .evaluation import RECHECK, Asker, NeverEnds, _mean, _ratio, as_policy, pig_exact


def players() -> tuple:
    """The PettingZoo environments' names: every game with a game model of several players (``shutthebox.rl``)."""
    from .model_env import aec_games

    return tuple(aec_games())


@dataclass
class VersusEvaluation:
    """What :func:`evaluate_versus` found; chances are win shares (1 a win, 0.5 a two-way tie, 0 a loss).

    - ``share``, ``share_half_width``: the policy's mean result over the episodes and its 95% half-width;
    - ``optimum``: what optimal play wins on average in the same seats (exact, from the tables: each seat's
      share at the start of a game, before any dice, every player playing the table's moves);
    - ``loss``: what the policy loses a game against optimal play: exact (``loss_exact``, ``exact`` the
      policy's exact share, ``exact_by_seat`` each seat's) where known (``pig_v0``, a deterministic policy),
      else the mean of the regrets summed along each game with its 95% half-width ``loss_half_width``;
    - ``regret``, ``regret_half_width``: the mean regret per legal decision; ``decisions``, ``illegal``;
      ``truncated`` episodes cut short (``cut_illegal`` after ``max_illegal`` illegal actions in a row,
      ``cut_steps`` at ``max_steps``): then no share and no loss.
    """

    env_id: str
    seats: tuple
    episodes: int
    share: float | None
    share_half_width: float | None
    optimum: float | None
    loss: float | None
    loss_half_width: float | None
    loss_exact: bool
    regret: float | None
    regret_half_width: float | None
    decisions: int
    illegal: int
    truncated: int
    cut_illegal: int = 0
    cut_steps: int = 0
    exact: float | None = None
    exact_by_seat: dict = field(default_factory=dict)
    episode_loss: float | None = None
    episode_loss_half_width: float | None = None
    stochastic: bool = False
    note: str = ""

    def __str__(self) -> str:
        seats = ", ".join("player_%d" % seat for seat in self.seats)
        lines = ["%s: the policy as %s against the table's player (win share: more is better)" % (self.env_id, seats)]
        if self.loss is None:
            lines.append("  no value: " + (self.note or "the policy does not finish its games: %d of %d episodes "
                                           "cut short" % (self.truncated, self.episodes)))
        elif self.loss_exact:
            also = ""
            if self.episode_loss is not None:
                also = "; %.6f +- %.6f from the regrets along %d episodes" % (
                    self.episode_loss, self.episode_loss_half_width, self.episodes)
            lines.append("  loss per game:         %.6f   (exact%s)" % (self.loss, also))
        else:
            lines.append("  loss per game:         %.6f +- %.6f   (the regrets summed along each of %d games)"
                         % (self.loss, self.loss_half_width, self.episodes))
        share = "the episodes' %.4f +- %.4f" % (self.share, self.share_half_width) if self.share is not None else ""
        if self.exact is not None:
            share = "this policy %.6f (exact)%s" % (self.exact, "; " + share if share else "")
        if self.optimum is not None:
            share += "%soptimal play %.6f (exact)" % ("; " if share else "", self.optimum)
        lines.append("  win share:             " + share)
        if self.episodes:
            lines.append("  regret per decision:   %.6f +- %.6f over %d legal decisions" % (
                self.regret, self.regret_half_width, self.decisions))
            lines.append("  episodes:              %d, %d cut short; %d illegal actions" % (
                self.episodes, self.truncated, self.illegal))
        if self.note and self.loss is not None:
            lines.append("  note: " + self.note)
        return "\n".join(lines)


def evaluate_versus(policy, env_id: str, *, episodes: int = 1000, seed: int = 0, seat: int | None = None,
                    exact: bool = True, deterministic: bool | None = None, max_steps: int = 100_000,
                    max_illegal: int = 100, **env_options) -> VersusEvaluation:
    """Evaluate ``policy`` in the PettingZoo environment ``env_id`` (``shutthebox_v0``, ``goat_v0``,
    ``pig_v0``, made with ``env_options``) against the table's player in every other seat.

    ``seat``: the policy's seat (0 moves first), or None to alternate (episode e: seat e mod the players).
    The policy gets the environment's observation (``{"observation", "action_mask"}``) and the mask, as
    :func:`shutthebox.rl.evaluate` gives them; an illegal action changes nothing, and an episode is cut after
    ``max_illegal`` of them in a row or ``max_steps`` steps. ``exact``: for ``pig_v0``, the policy's exact
    share (it is asked in every state of each seat it plays, about 10 s a seat for Pig to 100)."""
    name = env_id.rsplit(".", 1)[-1]
    if name not in players():
        raise ValueError("evaluate_versus plays the PettingZoo environments %s, not %r" % (", ".join(players()), env_id))
    module = importlib.import_module("shutthebox.rl." + name)
    env = module.raw_env(**env_options)
    seated = len(env.possible_agents)
    if seat is not None and (isinstance(seat, bool) or seat not in range(seated)):
        raise ValueError("seat must be None (alternate) or a seat from 0 to %d, not %r" % (seated - 1, seat))

    def wrap(board, mask):
        return {"observation": board, "action_mask": mask}

    ask = Asker(as_policy(policy), wrap, 0 if deterministic else RECHECK)
    seats = tuple(range(seated)) if seat is None else (seat,)
    played = [seats[episode % len(seats)] for episode in range(episodes)] if episodes else list(seats)
    exact_by_seat, note = {}, ""
    if exact and name == "pig_v0":  # solved on the Pig solver's engine, as Pig-v0's exact pass
        from .pig import model as pig_model

        rules = env.rules
        try:
            for each in sorted(set(played)):
                exact_by_seat[each] = pig_exact(pig_model(rules.variant, rules.goal, rules.sides), each, ask,
                                                extra=(each, each))
        except NeverEnds as error:
            exact_by_seat, note = {}, str(error)
    ask.recheck = 0
    env.reset(seed=seed)
    shares, regrets, counts = [], [], []
    illegal = cut_illegal = cut_steps = 0
    for episode in range(episodes):
        if episode:
            env.reset()
        me = env.possible_agents[played[episode]]
        result, regret = env.rewards[me], 0.0  # a game may end before its first action (Shut the Box)
        decisions = repeated = steps = 0
        cut = False
        while not all(env.terminations.values()):
            agent = env.agent_selection
            if agent != me:
                env.step(env._decision.move)
            else:
                observation = env.observe(agent)
                action = ask(observation["observation"], observation["action_mask"], observation)
                env.step(action)
                info = env.infos[me]
                if info["illegal"]:
                    illegal += 1
                    repeated += 1
                    if repeated >= max_illegal:
                        cut_illegal += 1
                        cut = True
                        break
                else:
                    repeated = 0
                    decisions += 1
                    regret += info["regret"]
            result += env.rewards[me]
            steps += 1
            if steps >= max_steps:
                cut_steps += 1
                cut = True
                break
        if not cut:
            shares.append(result)
        regrets.append(regret)
        counts.append(decisions)
    stochastic = deterministic is False or ask.differs is not None
    if stochastic and exact_by_seat:
        exact_by_seat, note = {}, "a stochastic policy: its share is the episodes' (no exact value)"
    truncated = cut_illegal + cut_steps
    starts = {each: env.start_value(each) for each in set(played)}  # each seat's exact share before any dice
    optimum = sum(starts[each] for each in played) / len(played)
    share = share_half = regret_mean = regret_half = loss = loss_half = episode_loss = episode_half = None
    if episodes:
        regret_mean, regret_half = _ratio(regrets, counts)
        if not truncated:
            share, share_half = _mean(shares)
            episode_loss, episode_half = _mean(regrets)
    exact_share, loss_exact = None, False
    if exact_by_seat and not truncated:
        exact_share = sum(exact_by_seat[each] for each in played) / len(played)
        if optimum is not None:
            loss, loss_half, loss_exact = max(optimum - exact_share, 0.0), 0.0, True
    if not loss_exact and episode_loss is not None and not note.startswith("the policy chooses"):
        loss, loss_half = episode_loss, episode_half
    return VersusEvaluation(env_id, seats, episodes, share, share_half, optimum, loss, loss_half, loss_exact,
                            regret_mean, regret_half, sum(counts), illegal, truncated, cut_illegal, cut_steps,
                            exact_share, exact_by_seat, episode_loss if loss_exact else None,
                            episode_half if loss_exact else None, stochastic, note)


__all__ = ["VersusEvaluation", "evaluate_versus", "players"]
