"""`turnstream bench --bots`: how the bot levels compare, over seeded two-player matches per game."""
from __future__ import annotations

import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from domain.engine import HmacRng
from domain.games import GAME_PACKAGES, load_games

PAIRINGS = (("greedy", "random"), ("mcts", "greedy"))
BENCH_MCTS_ITERATIONS = 30
MAX_COMMANDS = 5000


def progress(message: str) -> None:
    """One progress line on stderr."""
    print(f"bench --bots: {message}", file=sys.stderr, flush=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game_id: str, levels: dict, seed: int, mcts_iterations: int) -> dict:
    """Play one match between bots ({seat id: level}, in seat order) on seeded dice; return the result
    and how many commands each level sent and how long it thought."""
    from domain.bots import choose, information_set  # the bots load in the bench's processes, not for --help
    game = load_games()[game_id]
    players = list(levels)
    options = game.options_schema.load({})
    match_id = f"bench-{game_id}-{seed}"
    rng = HmacRng(seed.to_bytes(8, "big") * 4, match_id, 0)
    state = game.initial_state(players, options)
    for ev in game.setup(players, options, rng):
        state = game.evolve(state, ev)
    thinking = {p: 0.0 for p in players}
    sent = {p: 0 for p in players}
    for version in range(MAX_COMMANDS):
        if game.result(state) is not None:
            break
        player = game.active_players(state)[0]
        info = information_set(game, state, player)
        started = time.perf_counter()
        command = choose(levels[player], info, seed * 100_003 + version, iterations=mcts_iterations)
        thinking[player] += time.perf_counter() - started
        sent[player] += 1
        for ev in game.decide(state, player, command, rng):
            state = game.evolve(state, ev)
    result = game.result(state) or {"winners": [], "scores": {}}
    return {"winners": result["winners"], "sent": sent, "thinking": thinking}


def _job(task):
    game_id, strong, weak, i, seed, iterations = task
    seats = {"s0": strong, "s1": weak} if i % 2 == 0 else {"s0": weak, "s1": strong}
    out = play(game_id, seats, seed, iterations)
    strong_seat = "s0" if i % 2 == 0 else "s1"
    winners = out["winners"]
    score = 0.0 if strong_seat not in winners else (1.0 if len(winners) == 1 else 0.5)
    return game_id, strong, weak, score, out["sent"][strong_seat], out["thinking"][strong_seat]


def run(games: list, matches: int, iterations: int, workers: int, seed: int, pairings=PAIRINGS) -> list:
    """Every pairing in every game, `matches` matches each (seats alternate); one row per pairing. A
    match's seed depends on its game's place among all games, so running fewer games plays the same."""
    order = list(GAME_PACKAGES)
    tasks = [(g, strong, weak, i, seed + 1000 * i + 7 * order.index(g), iterations)
             for g in games for strong, weak in pairings for i in range(matches)]
    rows: dict = {}
    done = 0
    started = time.time()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game_id, strong, weak, score, sent, thinking in pool.map(_job, tasks, chunksize=1):
            row = rows.setdefault((game_id, strong, weak), {"game": game_id, "bot": strong, "against": weak,
                                                             "matches": 0, "wins": 0, "draws": 0, "losses": 0,
                                                             "commands": 0, "thinking": 0.0})
            row["matches"] += 1
            row["wins" if score == 1 else "draws" if score == 0.5 else "losses"] += 1
            row["commands"] += sent
            row["thinking"] += thinking
            done += 1
            if done % 20 == 0 or done == len(tasks):
                progress(f"{done}/{len(tasks)} matches, {time.time() - started:.0f} s")
    out = []
    for row in rows.values():
        points = row["wins"] + 0.5 * row["draws"]
        lo, hi = wilson(points, row["matches"])
        out.append({**row, "win_rate": points / row["matches"], "ci95": [lo, hi],
                    "ms_per_command": 1000 * row["thinking"] / max(row["commands"], 1)})
    return out


def table(rows: list, iterations: int) -> str:
    """The results as a Markdown table."""
    lines = ["| game | bot | against | matches | won / drawn / lost | win rate (draw = ½) | 95% Wilson interval "
             "| thinking per command |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        bot = f"mcts ({iterations} iterations)" if r["bot"] == "mcts" else r["bot"]
        lines.append(f"| {r['game']} | {bot} | {r['against']} | {r['matches']} | {r['wins']} / {r['draws']} / "
                     f"{r['losses']} | {r['win_rate']:.0%} | {r['ci95'][0]:.0%}-{r['ci95'][1]:.0%} "
                     f"| {r['ms_per_command']:.1f} ms |")
    return "\n".join(lines)


def cmd_bench_bots(args) -> int:
    """Run the bot-level benchmark and print its table (or JSON)."""
    games = args.games or list(GAME_PACKAGES)
    pairings = [tuple(p.split("-", 1)) for p in args.pairings] if args.pairings else list(PAIRINGS)
    progress(f"{len(games)} games x {len(pairings)} pairings x {args.bot_matches} matches, "
             f"mcts {args.mcts_iterations} iterations, {args.workers} processes")
    rows = run(games, args.bot_matches, args.mcts_iterations, args.workers, args.seed, pairings)
    if args.json:
        print(json.dumps({"bots": rows, "mcts_iterations": args.mcts_iterations}, indent=2))
    else:
        print(table(rows, args.mcts_iterations))
    return 0


def add_arguments(p) -> None:
    """The `turnstream bench --bots` options."""
    p.add_argument("--bots", action="store_true", help="compare the bot levels (win rates) instead")
    p.add_argument("--bot-matches", type=int, default=100, help="with --bots: matches per pairing and game (100)")
    p.add_argument("--mcts-iterations", type=int, default=BENCH_MCTS_ITERATIONS,
                   help=f"with --bots: MCTS iterations per command ({BENCH_MCTS_ITERATIONS}; live play is time-bounded)")
    p.add_argument("--workers", type=int, default=2, help="with --bots: processes (2)")
    p.add_argument("--seed", type=int, default=15, help="with --bots: the first match seed (15)")
    p.add_argument("--games", nargs="*", help="with --bots: only these game ids")
    p.add_argument("--pairings", nargs="*", choices=[f"{s}-{w}" for s, w in PAIRINGS],
                   help="with --bots: only these pairings (strong-weak, e.g. mcts-greedy)")
