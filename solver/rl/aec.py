"""Tessera's games as PettingZoo AEC environments (docs/rl.md):
``env("azul", players=3)``, ``env("azure", gifted="mighty")``.

Agents ``player_1`` ... take turns as the rules say (``agent_selection`` is the player to
move; chance acts inside ``step``). Each observation is a dict: ``observation`` (the
game's vector from that agent's side, ``tessera.rl.encoding``; in Azure made from its view)
and ``action_mask`` (int8, the legal action ids of the agent to move; all zero for the
others). Rewards come at the end: ``players * payoff - 1`` (winners share the payoff 1).

``max_cycles``: the game is truncated when the agent to act has made that many moves, so
no agent makes more. ``illegal_action``: what an action that is not legal
does: ``"terminate"`` (PettingZoo's classic games: the game ends, the offender gets -1,
the others 0), ``"raise"`` (a ``MoveError``), or ``"fold"`` (the legal action at that
index, modulo the number of legal actions, in ascending id order: for drivers that sample
without the mask). ``seed``: where the generator of deal seeds starts when ``reset`` is
given none (default: unseeded), and the action spaces' seeds (``seed + seat``).

The players of these games do not always move in rotation (a gray-wall player may tile
several lines in a row; a round's first player is who took the marker; Azure's decisions
after a placement), so a cycle of PettingZoo's parallel API is "until an agent would move a
second time". PettingZoo's ``max_cycles_test`` wants the agent that moved most and the
median agent to have made ``max_cycles`` moves: this truncation gives that on every deal
where some truncation could, and no truncation can where a repeated turn takes an agent
past ``max_cycles`` before the median agent gets there (docs/rl.md).
"""

import random
from typing import TYPE_CHECKING

import numpy as np

from tessera.errors import MoveError, OptionError, require_extra
from tessera.rl.table import Table

# The 'rl' extra's libraries: the environments below are PettingZoo's classes.
WHAT = "tessera.rl.aec (the PettingZoo environments)"
if TYPE_CHECKING:  # the same modules, where a type checker finds their classes
    import gymnasium
    import pettingzoo
else:
    gymnasium = require_extra("gymnasium", "rl", WHAT)
    pettingzoo = require_extra("pettingzoo", "rl", WHAT)

ILLEGAL_ACTIONS = ("terminate", "raise", "fold")


class TesseraAEC(pettingzoo.AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "tessera_v0", "is_parallelizable": False}

    def __init__(
        self, game="azul", render_mode=None, max_cycles=None, illegal_action="terminate", seed=None, **options
    ):
        super().__init__()
        if illegal_action not in ILLEGAL_ACTIONS:
            raise OptionError(f"illegal_action is one of {', '.join(ILLEGAL_ACTIONS)}, not {illegal_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise OptionError(f"unknown render mode {render_mode!r}")
        self.table = Table(game, **options)
        self.render_mode, self.max_cycles, self.illegal_action = render_mode, max_cycles, illegal_action
        self.metadata = dict(self.metadata, name=f"tessera_{game}_v0")
        self.possible_agents = [f"player_{p + 1}" for p in range(self.table.players)]
        size, actions = self.table.encoding.observation_size, self.table.encoding.num_actions
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(actions) for agent in self.possible_agents}
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise OptionError(f"seed is a whole number, not {seed!r}")
        self._seeds = random.Random(seed)
        if seed is not None:
            for p, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + p)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game, dealt from the next seed of the generator ``seed`` (re)starts."""
        if seed is not None:
            self._seeds.seed(seed)
        self.table.deal(self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.moves = [0] * len(self.possible_agents)
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        mask = self.table.mask() if self.table.to_move == player else np.zeros(self.table.encoding.num_actions, np.int8)
        return {"observation": self.table.observation(player), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise MoveError(repr(action), f"{agent} is to act and an action is an action id (a whole number)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        legal = self.table.legal_actions()
        if action not in legal and self.illegal_action == "fold":
            action = legal[int(action) % len(legal)]
        if action not in legal and self.illegal_action == "terminate":
            self.rewards[agent] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": int(action)}
        else:
            self.table.play(action)  # raises MoveError for "raise"
            self.moves[self.possible_agents.index(agent)] += 1
            if self.table.is_over:
                self.rewards = dict(zip(self.possible_agents, self.table.returns().tolist()))
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_cycles is not None and self.moves[self.table.to_move] >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.table.is_over or any(self.terminations.values()) or any(self.truncations.values()):
            self.agent_selection = self._next_after(agent)
        else:
            self.agent_selection = self.possible_agents[self.table.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _next_after(self, agent):
        """Once the game stopped, the agents take their last turn in seat order."""
        return self.agents[(self.agents.index(agent) + 1) % len(self.agents)]

    def render(self):
        """The position's text (``ansi``), or its drawing printed (``human``)."""
        if self.render_mode == "ansi":
            return self.table.position().text()
        if self.render_mode == "human":
            from rich import print as rich_print

            rich_print(self.table.position().render())
        return None

    def close(self):
        pass


class TesseraParallel(pettingzoo.ParallelEnv):
    """The AEC game for PettingZoo's parallel API: each step is one cycle, in which the agents
    move in turn, each whose turn it is playing the action it was given (``"fold"`` makes
    an action chosen before the others moved legal; an agent whose turn comes twice in a
    cycle moves once). A step returns every agent's observation after the cycle."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tessera_v0", "is_parallelizable": True}

    def __init__(self, game="azul", render_mode=None, max_cycles=None, illegal_action="fold", seed=None, **options):
        self.aec = TesseraAEC(game, render_mode, None, illegal_action, seed, **options)
        self.render_mode, self.max_cycles = render_mode, max_cycles
        self.possible_agents = self.aec.possible_agents
        self.metadata = dict(self.metadata, name=self.aec.metadata["name"])

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed=None, options=None):
        self.aec.reset(seed, options)
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return {agent: self.aec.observe(agent) for agent in self.agents}, {a: {} for a in self.agents}

    def step(self, actions):
        aec = self.aec
        rewards = dict.fromkeys(self.agents, 0.0)
        moved = set()
        while aec.agent_selection not in moved and not (
            aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]
        ):
            agent = aec.agent_selection
            moved.add(agent)
            aec.step(actions[agent])
            for other in self.agents:
                rewards[other] += aec.rewards[other]
        self.cycles += 1
        over = any(aec.terminations.values())
        cut = self.max_cycles is not None and self.cycles >= self.max_cycles and not over
        observations = {agent: aec.observe(agent) for agent in self.agents}
        terminations = {agent: over for agent in self.agents}
        truncations = {agent: cut or aec.truncations[agent] for agent in self.agents}
        infos = {agent: dict(aec.infos[agent]) for agent in self.agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self):
        pass


def env(game="azul", **kwargs):
    """The AEC environment of ``game`` (keyword arguments: ``TesseraAEC``'s and the game's options)."""
    return TesseraAEC(game, **kwargs)


def parallel_env(game="azul", **kwargs):
    return TesseraParallel(game, **kwargs)
