"""The far side of bench/versus.py: agents of another source tree, answering over pipes.

Started by bench/versus.py with that tree first on ``PYTHONPATH``. It uses only the
tree's public Python API (``tessera.games.game_of_position``, ``tessera.agents.parse_agent``
and the game's ``parse_move`` / ``format_move``), so any commit offering it can serve.
One JSON object a line on stdin, one answer a line on stdout:

  {"op": "hello"}                                   -> {"solver": file of the solver package}
  {"op": "agent", "spec": S, "seed": N}             -> {"agent": id}
  {"op": "choose", "agent": id, "position": P,
   "seen": [[P0, M0], ...]}                         -> {"move": text, "seconds": wall time of choose}
  {"op": "drop", "agent": id}                       -> {}
  {"op": "rate", "position": P, "simulations": N,
   "seed": S}                                       -> {"simulations_per_s": CPU-time rate}

``rate`` times one search with the default options from ``P`` (after a short one that
loads its kernels), MCTS or, on a player's view, IS-MCTS: bench/pavilion_rollouts.py
alternates such searches of two trees.

``seen`` lists the moves played since the agent last chose (its own included), each
with the position its mover saw, so the agent can follow the game (``observe``).
Any failure answers {"error": one line}.
"""
import itertools
import json
import sys
import time


def serve(lines, answer):
    import tessera
    from tessera.agents import parse_agent
    from tessera.games import game_of_position

    agents = {}
    ids = itertools.count()

    def handle(request):
        op = request["op"]
        if op == "hello":
            return {"solver": tessera.__file__}
        if op == "agent":
            key = next(ids)
            agents[key] = parse_agent(request["spec"], seed=request["seed"])
            return {"agent": key}
        if op == "drop":
            agents.pop(request["agent"], None)
            return {}
        if op == "choose":
            agent = agents[request["agent"]]
            for position, move in request["seen"]:
                game, state = game_of_position(position)
                agent.observe(game.parse_move(state, move))
            game, state = game_of_position(request["position"])
            started = time.perf_counter()
            move = agent.choose(state)
            return {"move": game.format_move(state, move), "seconds": time.perf_counter() - started}
        if op == "rate":
            return {"simulations_per_s": simulations_per_s(request)}
        raise ValueError(f"unknown op {op!r}")

    for line in lines:
        try:
            reply = handle(json.loads(line))
        except Exception as err:        # noqa: BLE001  (every failure goes back as one line)
            reply = {"error": f"{type(err).__name__}: {err}".splitlines()[0]}
        answer(json.dumps(reply))


def simulations_per_s(request):
    from tessera.kernels import games
    from tessera.games import game_of_position
    from tessera.search.ismcts import Ismcts
    from tessera.search.mcts import Mcts, MctsOptions
    _, state = game_of_position(request["position"])
    search = Mcts if games.is_complete(state) else Ismcts
    search(MctsOptions(iterations=64, seed=0)).search(state)        # load the kernels
    searcher = search(MctsOptions(iterations=request["simulations"], seed=request["seed"]))
    cpu = time.process_time()
    visits = searcher.search(state).visits
    return visits / (time.process_time() - cpu)


def main():
    def answer(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    serve(sys.stdin, answer)


if __name__ == "__main__":
    main()
