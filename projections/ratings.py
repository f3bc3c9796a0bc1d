"""Per-game ratings: openskill's Plackett-Luce model folded over finished matches in the order they finished.

Every finished match is recorded once (its players and ranks by finish time); the ratings are the fold
of those records in (finish time, match id) order, so the live projection and a rebuild from zero
reach the same numbers whichever order the partitions are projected in: a match recorded after a
later one makes the fold start again from the first match of its game.

A match counts only when a person played in it: at least one seat of a user who is not a bot made a move
themselves (`domain.engine.bot_seats.played_by_people`). A match of bots, or of people whose every move a
stand-in bot made, rates nobody (bots included) and is noted as unrated: otherwise anyone could farm a rating
from matches nobody plays. In a match that counts every seat is rated, a seat a stand-in finished included (a
player cannot leave a losing match to the stand-in to keep it off their rating).
"""
from __future__ import annotations

import json

from openskill.models import PlackettLuce

from domain.engine.bot_seats import played_by_people
from domain.engine.timestamps import epoch
from projections.shadow import shadow
from service.store.keys import Keys

TAG = Keys.RATINGS_TAG
UNRATED_NO_PERSON = "no person played: bots and stand-ins only"


def _model():
    return PlackettLuce()


def shown(mu: float, sigma: float) -> float:
    """The rating shown: the conservative estimate mu - 3 sigma (openskill's ordinal), 2 decimals."""
    return round(mu - 3 * sigma, 2)


def _points(value) -> float:
    if isinstance(value, dict):
        value = value.get("total", value.get("vp", 0))
    return float(value) if isinstance(value, (int, float)) else 0.0


def ranks(result: dict, players: list) -> list:
    """1-based ranks (ties share one): winners first, then by score; players who conceded last."""
    winners = set(result.get("winners") or [])
    conceded = set(result.get("conceded") or [])
    scores = result.get("scores") or {}
    keys = {p: (p not in conceded, p in winners, _points(scores.get(p))) for p in players}
    ordered = sorted(set(keys.values()), reverse=True)
    return [ordered.index(keys[p]) + 1 for p in players]


def rate(table: dict, record: dict, model=None) -> dict:
    """Apply one finished match to `table` ({user: {"mu", "sigma", "matches"}}, changed in place); return
    {user: {"before", "after", "rank"}} in shown ratings."""
    model = model or _model()
    players, places = record["players"], record["ranks"]
    teams = []
    for p in players:
        row = table.get(p)
        teams.append([model.rating(mu=row["mu"], sigma=row["sigma"], name=p) if row else model.rating(name=p)])
    before = {p: shown(t[0].mu, t[0].sigma) for p, t in zip(players, teams)}
    changes = {}
    for p, place, (new,) in zip(players, places, model.rate(teams, ranks=places)):
        table[p] = {"mu": new.mu, "sigma": new.sigma, "matches": table.get(p, {}).get("matches", 0) + 1}
        changes[p] = {"before": before[p], "after": shown(new.mu, new.sigma), "rank": place}
    return changes


def rank_score(row: dict) -> float:
    """A user's leaderboard place as a zset score (ascending = best first): the rating shown, then matches."""
    return -(round(shown(row["mu"], row["sigma"]) * 100) * 10_000_000 + min(row["matches"], 9_999_999))


def _row(user: str, raw: str) -> dict:
    v = json.loads(raw)
    return {"user": user, "rating": shown(v["mu"], v["sigma"]), "mu": round(v["mu"], 3),
            "sigma": round(v["sigma"], 3), "matches": v["matches"]}


class Ratings:
    """The ratings read model in Redis: records of finished matches, each game's table and changes.

    Per game: `unrated` (match -> why it rates nobody), `records` (match -> its players and ranks), `finished`
    (zset, match by finish time), `table` (user -> mu, sigma, matches now), `changes` (match -> shown ratings
    before and after, per player), `states` (match -> each player's mu, sigma and matches after it),
    `played:<user>` (zset, the user's matches by finish time), `rank` (zset, users in leaderboard order) and
    `folded` (the last position folded). A match that finishes after every folded one costs its own players'
    rows; one recorded late is folded in from its place onwards, each player starting from the state after
    their last earlier match: never the whole game's history."""

    LAYOUT = "3"  # the keys above; a game folded by an earlier layout (no states) is folded again from zero

    def __init__(self, redis_client, shadowed: bool = False):
        self.r = redis_client
        self.shadowed = shadowed  # a rebuild's ratings, built beside the live ones (projections/shadow.py)

    def key(self, kind: str, game: str = "") -> str:
        """A rating key: finished (zset by finish time), records, table, changes, states, played:<user>,
        rank (zset in leaderboard order), layout and folded (last folded)."""
        live = Keys.rating(kind, game)
        return shadow(live) if self.shadowed else live

    def record_finished(self, matches: list) -> int:
        """Record every finished match not yet folded and fold it into its game's ratings; return how many."""
        done = 0
        for m in matches:
            if m.status != "finished" or not m.result:
                continue
            at = epoch(m.finished_at) if m.finished_at else 0.0
            record = {"match": m.id, "players": list(m.players), "ranks": ranks(m.result, list(m.players)),
                      "at": m.finished_at}
            with self.r.lock(self.key("lock", m.game_id), timeout=60, blocking_timeout=60):
                # folded means its changes are written (one MULTI with the table), not merely recorded
                pipe = self.r.pipeline(transaction=False)
                pipe.hexists(self.key("changes", m.game_id), m.id)
                pipe.hexists(self.key("unrated", m.game_id), m.id)
                if any(pipe.execute()):
                    continue
                if not played_by_people(m.players, m.envelopes_since(1)):
                    self.r.hset(self.key("unrated", m.game_id), m.id, UNRATED_NO_PERSON)
                    continue
                self._add(m.game_id, at, record)
                done += 1
        return done

    def unrated(self, game: str, match_ids: list) -> dict:
        """{match id: why it is not rated} for those of these matches that counted for nobody's rating."""
        if not match_ids:
            return {}
        return {m: why for m, why in zip(match_ids, self.r.hmget(self.key("unrated", game), match_ids)) if why}

    def _add(self, game: str, at: float, record: dict) -> None:
        tx = self.r.pipeline(transaction=True)
        tx.hset(self.key("records", game), record["match"], json.dumps(record))
        tx.zadd(self.key("finished", game), {record["match"]: at})
        for user in record["players"]:
            tx.zadd(self.key(f"played:{user}", game), {record["match"]: at})
        tx.sadd(self.key("games"), game)
        tx.get(self.key("folded", game))
        tx.get(self.key("layout", game))
        folded, layout = tx.execute()[-2:]
        position = [at, record["match"]]
        if folded is None or json.loads(folded) < position:  # the usual case: it finished after all folded
            rows = self.r.hmget(self.key("table", game), record["players"])
            table = {u: json.loads(raw) for u, raw in zip(record["players"], rows) if raw}
            changes = {record["match"]: rate(table, record)}
            self._write(game, table, changes, {record["match"]: {u: table[u] for u in record["players"]}},
                        position, fresh=False, first=folded is None)
        elif layout != self.LAYOUT:
            self.refold(game)
        else:
            self._fold_from(game, position)

    def _fold_from(self, game: str, start: list) -> None:
        """Fold again every match at or after `start` ([at, match id]), each player starting from the
        state after their last match before it."""
        later = [(m, at) for m, at in self.r.zrangebyscore(self.key("finished", game), start[0], "+inf",
                                                           withscores=True) if [at, m] >= start]
        records = dict(zip([m for m, _ in later],
                           self.r.hmget(self.key("records", game), [m for m, _ in later])))
        model = _model()
        table, changes, states = {}, {}, {}
        for match_id, _at in later:
            record = json.loads(records[match_id])
            table.update(self._states_before(game, [u for u in record["players"] if u not in table], start))
            changes[match_id] = rate(table, record, model)
            states[match_id] = {u: table[u] for u in record["players"]}
        self._write(game, table, changes, states, [later[-1][1], later[-1][0]], fresh=False)

    def _states_before(self, game: str, users: list, start: list) -> dict:
        """{user: mu, sigma and matches after their last match before `start`} for users who have one."""
        pipe = self.r.pipeline(transaction=False)
        for user in users:  # the last match before start's time, and those at its very time (ties by id)
            pipe.zrevrangebyscore(self.key(f"played:{user}", game), f"({start[0]}", "-inf", start=0, num=1)
            pipe.zrangebyscore(self.key(f"played:{user}", game), start[0], start[0])
        found = pipe.execute()
        last = {}
        for i, user in enumerate(users):
            earlier, same_time = found[2 * i], [m for m in found[2 * i + 1] if m < start[1]]
            if same_time or earlier:
                last[user] = max(same_time) if same_time else earlier[0]
        if not last:
            return {}
        rows = self.r.hmget(self.key("states", game), list(set(last.values())))
        after = dict(zip(list(set(last.values())), rows))
        return {user: json.loads(after[match_id])[user] for user, match_id in last.items()}

    def refold(self, game: str) -> None:
        """Fold every recorded match of `game` from the first, in finish order, and store the result."""
        model = _model()
        table, changes, states, position = {}, {}, {}, None
        records = self.r.hgetall(self.key("records", game))
        played: dict = {}
        for match_id, at in self.r.zrange(self.key("finished", game), 0, -1, withscores=True):
            record = json.loads(records[match_id])
            changes[match_id] = rate(table, record, model)
            states[match_id] = {u: table[u] for u in record["players"]}
            for user in record["players"]:
                played.setdefault(user, {})[match_id] = at
            position = [at, match_id]
        self._write(game, table, changes, states, position, fresh=True, played=played)

    def _write(self, game: str, table: dict, changes: dict, states: dict, position, fresh: bool,
               played: dict | None = None, first: bool = False) -> None:
        tx = self.r.pipeline(transaction=True)
        if fresh or first:
            tx.set(self.key("layout", game), self.LAYOUT)
        if fresh:
            tx.delete(self.key("table", game), self.key("changes", game), self.key("states", game),
                      self.key("rank", game))
            for user, matches in (played or {}).items():
                tx.delete(self.key(f"played:{user}", game))
                tx.zadd(self.key(f"played:{user}", game), matches)
        if table:
            tx.hset(self.key("table", game), mapping={u: json.dumps(v) for u, v in table.items()})
            tx.zadd(self.key("rank", game), {u: rank_score(v) for u, v in table.items()})
        if changes:
            tx.hset(self.key("changes", game), mapping={m: json.dumps(c) for m, c in changes.items()})
            tx.hset(self.key("states", game), mapping={m: json.dumps(s) for m, s in states.items()})
        if position is not None:
            tx.set(self.key("folded", game), json.dumps(position))
        tx.execute()

    # -- reading -------------------------------------------------------------------------------
    def leaderboard(self, game: str, offset: int = 0, limit: int | None = None) -> tuple[list, int]:
        """([{"user", "rating", "mu", "sigma", "matches"}] best first (ties: more matches, then user id) from
        `offset`, at most `limit` of them; how many are rated in all). Reads only the rows asked for."""
        rank, table = self.key("rank", game), self.key("table", game)
        pipe = self.r.pipeline(transaction=False)
        pipe.zcard(rank)
        pipe.zrange(rank, offset, offset + limit - 1 if limit else -1)
        total, users = pipe.execute()
        if not total and self.r.exists(table):  # folded before the rank index was kept: sort the table
            rows = sorted((_row(u, raw) for u, raw in self.r.hgetall(table).items()),
                          key=lambda row: (-row["rating"], -row["matches"], row["user"]))
            return rows[offset:offset + limit if limit else None], len(rows)
        raws = self.r.hmget(table, users) if users else []
        return [_row(u, raw) for u, raw in zip(users, raws) if raw], total

    def of_user(self, user: str) -> dict:
        """{game: shown rating} for every game the user has a rating in."""
        games = sorted(self.r.smembers(self.key("games")))
        pipe = self.r.pipeline(transaction=False)
        for game in games:
            pipe.hget(self.key("table", game), user)
        out = {}
        for game, raw in zip(games, pipe.execute()):
            if raw:
                v = json.loads(raw)
                out[game] = shown(v["mu"], v["sigma"])
        return out

    def changes(self, game: str, match_ids: list) -> dict:
        """{match id: {user: {"before", "after", "rank"}}} for these matches of one game."""
        if not match_ids:
            return {}
        raws = self.r.hmget(self.key("changes", game), match_ids)
        return {m: json.loads(raw) for m, raw in zip(match_ids, raws) if raw}
