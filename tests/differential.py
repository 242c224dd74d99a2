"""The differential harness: one seeded random game played on both engines, the Python engine
(the reference, docs/engine.md) and the native engine, compared after every move; and the
driver of the long run (docs/engine.md, "The differential run").

``play_pair`` plays deal ``seed`` (at most ``MOVE_CAP`` moves) with moves drawn by
``random.Random(seed)`` and compares, after every move: the legal moves in order (the native
engine playing on from its own held position), the position (status included), the score, the
undo of that move, and the player's view with memory. On a sampled share of moves
(``OUTCOME_SHARE``) also the view without memory and one move of the view's listing: played on
the view, a sampled outcome with its probability, and the outcomes listed with their
probabilities (``LIMIT`` of them; see ``LISTED_REVEALS``); and the error of a move the view does
not list. One game in ``REPLAY_EVERY`` replays
its log on both engines at the end, to the very boards played. The first difference ends the
game as a ``Mismatch`` (game, seed, step, what differed); an error raised by either engine is
one too.

Each game also leaves two digests of the Python side's answers: ``play`` (each move's listing,
position and score) and ``view`` (each view and the sampled answers). ``replay_native`` plays
the same seeded moves on the native engine alone and gives its digests, so that a change of the
native engine is checked against stored digests without running the Python engine (with
``views``, a move that shuffles still has the memory traced by the Python engine).

The driver (``python tests/differential.py --help``): ``run`` plays every family's games
(``--per-family`` games a family, spread evenly over its rule sets, a rule set with no family
being its own), in blocks of ``BLOCK`` seeds claimed by whichever worker is free, slowest
families first, appending each finished block (with its digests) to the worker's results file
and skipping finished blocks on a restart; ``summary`` prints the totals; ``check`` replays the
stored games on the native engine alone against their digests and, for a game whose digest
differs, plays it again on both engines to name the step.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import marshal
import math
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import attrs

from cardz_core.engine import Game, Move, State, compile
from cardz_core.engine.state import Status
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.native import NativeEngineGame, extension
from cardz_core.planners.base import Unknown, refuse_reveal
from cardz_core.rulesets import bundled
from cardz_core.spec import load_game
from cardz_core.view import Memory, View, trace

LIMIT = 12  # outcomes listed per compared move (a redeal's full listing is far too long)
OUTCOME_SHARE = 0.05  # the share of moves whose view is also played, listed and sampled
# The counts model's listing of a move that turns up several unknown cards searches every
# ordered draw (seconds for Aces Up's four-card deal, in Python): such a move's outcome is
# compared by its sample, the listing only where the sample turned up at most one card.
LISTED_REVEALS = 1
REPLAY_EVERY = 10  # one game in this many replays its log on both engines (seed % 10 == 0)
MOVE_CAP = 60  # moves per game: most random games that end do so sooner; many never end
BLOCK = 50  # seeds per block of the long run: the unit claimed, recorded and skipped
ROOT = Path(__file__).resolve().parents[1]


@attrs.frozen
class Mismatch:
    game: str
    seed: int
    step: int  # the moves played to the position where they differ (0: the deal)
    what: str

    def __str__(self) -> str:
        return f"{self.game} seed {self.seed} step {self.step}: {self.what}"


@attrs.frozen
class Played:
    """One game of ``play_pair`` (or ``replay_native``): its moves, whether it stopped at the
    move cap, its digests, and its first mismatch (None when the engines agreed)."""

    seed: int
    moves: int
    capped: bool
    play: str
    view: str
    mismatch: Mismatch | None = None


class Differs(Exception):
    """Raised inside a game at its first difference: what differed."""


class Digest:
    """A running hash of answers: ``add`` takes their ``repr``s (exact for ints, floats, texts
    and tuples), ``add_ints`` a tuple of ints, tuples of ints and None (a position's key, a
    view's, a listing) by ``marshal`` (version 2, which writes no back-references: the bytes
    don't depend on which tuples are shared), the same in every process and cheaper than text
    (``hash`` is not: None's differs from one process to the next)."""

    def __init__(self) -> None:
        self._h = hashlib.blake2b(digest_size=12)

    def add(self, *parts: Any) -> None:
        self._h.update(repr(parts).encode())

    def add_ints(self, value: tuple[Any, ...]) -> None:
        plain = tuple(int(x) if type(x) is Status else x for x in value)
        self._h.update(marshal.dumps(plain, 2))

    def hex(self) -> str:
        return self._h.hexdigest()


def same(what: str, got: Any, want: Any) -> None:
    """``got`` (the native engine's) equals ``want`` (the Python engine's), or ``Differs``."""
    if got != want:
        raise Differs(f"{what}: native {_short(got)}, python {_short(want)}")


def _short(value: Any, width: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


def _answer(call: Callable[[], Any]) -> Any:
    """``call()``, or the error it raised as ``(type name, message)``: engines agree on errors."""
    try:
        return call()
    except Unknown:
        return "turns up an unknown card"
    except Exception as exc:  # noqa: BLE001 (compared between the engines)
        return type(exc).__name__, str(exc)


def _listing(moves: Sequence[Move]) -> tuple[tuple[int, ...], ...]:
    return tuple(map(tuple, moves))


def _outcomes(game: Game, v: View, move: Move) -> Any:
    def listed() -> Any:
        got = game.outcomes(v, move, LIMIT)
        return [(o.probability, o.revealed, o.view.key()) for o in got], got.coverage, got.stopped
    return _answer(listed)


def _sampled(game: Game, v: View, move: Move, step: int) -> Any:
    def drawn() -> Any:
        rng = random.Random(step)
        o = game.sample_outcome(v, move, rng)
        return o.probability, o.revealed, o.view.key(), rng.getstate()
    return _answer(drawn)


def _on_view(game: Game, v: View, move: Move) -> Any:
    return _answer(lambda: game.apply(v, move, reveal=refuse_reveal).key())


def _view_checks(game: Game, v: View, side: random.Random, step: int) -> Any:
    """What one engine answers on view ``v`` at a sampled move (``side`` picks which move):
    the view's listing, then the move played on the view, its outcomes and a sampled one."""
    moves = game.legal_moves(v)
    if not moves:
        return _listing(moves), None
    move = side.choice(moves)
    sampled = _sampled(game, v, move, step)
    listed = len(sampled) == 4 and len(sampled[1]) <= LISTED_REVEALS
    return (_listing(moves), _on_view(game, v, move), sampled,
            _outcomes(game, v, move) if listed else None)


def _illegal(game: Game, v: View) -> Any:
    """The error the outcomes of a move not in the view's listing raise (compared, never put in
    a digest: the stored digests of the long run stay valid)."""
    bad = Move(0, 0, 0)
    if bad in game.legal_moves(v):
        return None
    return _answer(lambda: game.outcomes(v, bad))


def traced(game: Game, state: State, move: Move, memory: Memory) -> tuple[State, Memory]:
    """``move`` applied to ``state`` and the player's memory after it, as ``view.trace`` gives
    them. A move that shuffles nothing (the position's generator is unchanged) only teaches the
    unknown cards it leaves face up, so trace's second play of the move, on a shadow board, is
    made only after a shuffle."""
    after = game.apply(state, move)
    if after.rng != state.rng:
        traced_after, memory, _, _ = trace(game, state, move, memory)
        return traced_after, memory
    if memory.unknown:
        up = {c >> 1 for pile in after.piles for c in pile if c & 1}
        if not memory.unknown.isdisjoint(up):
            memory = Memory(memory.unknown - up, memory.labels)
    return after, memory


def pair(path: Path) -> tuple[Game, NativeEngineGame]:
    """The game of ``path`` on the Python engine and on the native engine."""
    spec = load_game(path, file=str(path))
    native = compile(spec, engine="native")
    assert isinstance(native, NativeEngineGame)
    return compile(spec, engine="python"), native


def play_pair(py: Game, nat: NativeEngineGame, name: str, seed: int,
              cap: int = MOVE_CAP, plain: bool = False) -> Played:
    """Deal ``seed`` played on both engines, compared as the module says; ``plain`` also has
    the native engine list and play from the Python engine's positions (each converted)."""
    plays, views = Digest(), Digest()
    step = at = 0  # moves played; those of the position being compared
    state = py.deal(seed)
    rng, side = random.Random(seed), random.Random(f"{seed}/views")
    try:
        held = nat.deal(seed)
        same("the deal", held, state)
        memory = Memory.initial(py, state)
        log = LogRecorder(py, seed=seed) if seed % REPLAY_EVERY == 0 else None
        boards = [state]
        while True:
            v = py.view(state, memory)
            views.add_ints(v.key())
            same("the view", nat.view(held, memory), v)
            if side.random() < OUTCOME_SHARE:
                same("the view without memory", nat.view(held), py.view(state))
                want = _view_checks(py, v, random.Random(step), step)
                same("the view's move, outcomes or sample",
                     _view_checks(nat, v, random.Random(step), step), want)
                views.add(want)
                same("the outcomes of an illegal move on the view", _illegal(nat, v),
                     _illegal(py, v))
            moves = py.legal_moves(state)
            same("the legal moves", nat.legal_moves(held), moves)
            if plain:
                same("the legal moves of the Python position", nat.legal_moves(state), moves)
            plays.add_ints(_listing(moves))
            if not moves or step == cap:
                break
            move = rng.choice(moves)
            at = step + 1
            after, memory = traced(py, state, move, memory)
            got = nat.apply(held, move)
            same(f"the position after {py.move_text(move)}", got, after)
            if plain:
                same(f"the Python position after {py.move_text(move)}", nat.apply(state, move),
                     after)
                same("the status's type", type(got.status), type(after.status))
            score = py.score_value(after)
            same("the score", nat.score_value(got), score)
            plays.add_ints(after.key())
            plays.add(score)
            same(f"the undo of {py.move_text(move)}", nat.undo(held, got), py.undo(state, after))
            if log is not None:
                log.record(state, move, after)
                boards.append(after)
            state, held, step = after, got, at
        if log is not None:
            doc = json.loads(json.dumps(log.document(state)))
            same("the log replayed on the Python engine", replay(py, doc), boards)
            same("the log replayed", replay(nat, doc), boards)
    except Differs as exc:
        return Played(seed, step, False, plays.hex(), views.hex(),
                      Mismatch(name, seed, at, str(exc)))
    except Exception as exc:  # noqa: BLE001 (an engine's error is a mismatch, reported)
        return Played(seed, step, False, plays.hex(), views.hex(),
                      Mismatch(name, seed, at, f"raised {type(exc).__name__}: {exc}"))
    return Played(seed, step, step == cap, plays.hex(), views.hex())


def replay_native(nat: NativeEngineGame, seed: int, cap: int = MOVE_CAP,
                  views: bool = False) -> Played:
    """Deal ``seed`` played as ``play_pair`` plays it, on the native engine alone: its digests
    (``view`` empty unless ``views``, which traces the memory on the Python engine)."""
    plays, seen = Digest(), Digest()
    held, step = nat.deal(seed), 0
    rng, side = random.Random(seed), random.Random(f"{seed}/views")
    memory = Memory.initial(nat, held)
    while True:
        if views:
            v = nat.view(held, memory)
            seen.add_ints(v.key())
            if side.random() < OUTCOME_SHARE:
                seen.add(_view_checks(nat, v, random.Random(step), step))
        moves = nat.legal_moves(held)
        plays.add_ints(_listing(moves))
        if not moves or step == cap:
            break
        move = rng.choice(moves)
        if views:
            got, memory = traced(nat, held, move, memory)
        else:
            got = nat.apply(held, move)
        plays.add_ints(got.key())
        plays.add(nat.score_value(got))
        held, step = got, step + 1
    return Played(seed, step, step == cap, plays.hex(), seen.hex() if views else "")


# ---- the long run ------------------------------------------------------------------------


def families() -> dict[str, list[Path]]:
    """Each family's rule sets; a rule set of no family is a family of its own."""
    out: dict[str, list[Path]] = defaultdict(list)
    for r in bundled():
        out[r.family or r.path.stem].append(r.path)
    return dict(out)


@attrs.frozen
class Block:
    family: str
    path: Path
    first: int  # the first seed
    games: int

    @property
    def name(self) -> str:
        return f"{self.path.stem}.{self.first}"


def blocks(per_family: int, order: Sequence[str], first_seed: int = 0) -> list[Block]:
    """Every block of the run: ``per_family`` games a family, spread evenly over its rule sets,
    families in ``order``, seeds from ``first_seed``."""
    found = families()
    out = []
    for family in order:
        paths = found[family]
        each = math.ceil(per_family / len(paths))
        for first in range(0, each, BLOCK):
            out += [Block(family, p, first_seed + first, min(BLOCK, each - first))
                    for p in paths]
    return out


def calibrated(games: int) -> dict[str, float]:
    """Each family's CPU seconds a game, the mean over its rule sets of ``games`` games of each
    played with ``play_pair``; the driver plays the slowest families first."""
    cost: dict[str, float] = defaultdict(float)
    for family, paths in families().items():
        for path in paths:
            py, nat = pair(path)
            start = time.process_time()
            for seed in range(games):
                play_pair(py, nat, path.stem, seed)
            cost[family] += (time.process_time() - start) / games / len(paths)
    return dict(cost)


def _plan(out: Path, per_family: int, calibrate: int, cap: int,
          first_seed: int) -> dict[str, Any]:
    """The run's plan, written by the first worker and read by the others (and on restarts):
    games per family, the move cap, the first seed, the family order, the commit and the
    extension checked."""
    path = out / "plan.json"
    tmp = path.with_suffix(".tmp")
    fd = None
    if not path.exists():
        try:
            fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass  # another worker is calibrating
        else:
            if path.exists():  # put in place since it was looked for
                os.close(fd)
                tmp.unlink()
                fd = None
    if fd is None:
        while not path.exists():
            time.sleep(1)
        plan: dict[str, Any] = json.loads(path.read_text())
        asked = {"per_family": per_family, "cap": cap, "first_seed": first_seed}
        if any(plan.get(k) != v for k, v in asked.items()):
            print(f"{out} has its plan: {plan['per_family']} games a family, cap {plan['cap']}, "
                  f"seeds from {plan.get('first_seed', 0)}; those options apply", flush=True)
        return plan
    cost = calibrated(calibrate)
    plan = {"per_family": per_family, "cap": cap, "first_seed": first_seed, "block": BLOCK,
            "outcome_share": OUTCOME_SHARE, "order": sorted(cost, key=lambda f: -cost[f]),
            "cpu_per_game": cost, **_identity()}
    with os.fdopen(fd, "w") as f:
        json.dump(plan, f, indent=1)
    os.replace(path.with_suffix(".tmp"), path)
    return plan


def _identity() -> dict[str, str]:
    """The commit of this worktree (``+dirty`` with uncommitted changes), the sha256 of what
    plays the games (the Python sources of cardz_core and the plugins, and the rule sets) and
    that of the native extension imported: a run is resumed only with the same two."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout
    commit = git("rev-parse", "HEAD").strip() + ("+dirty" if git("status", "--porcelain",
                                                                  "-uno").strip() else "")
    sources = hashlib.sha256()
    for pattern in ("cardz_core/**/*.py", "plugins/**/*.py", "rulesets/*.cardz"):
        for path in sorted(ROOT.glob(pattern)):
            sources.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    ext = extension()
    lib = Path(ext.__file__) if ext is not None and ext.__file__ else None
    digest = hashlib.sha256(lib.read_bytes()).hexdigest() if lib else "none"
    return {"commit": commit, "sources": sources.hexdigest(), "extension": digest}


def results(out: Path) -> Iterator[dict[str, Any]]:
    """Every finished block recorded under ``out``."""
    for path in sorted(out.glob("results-*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def _claim(out: Path, block: Block) -> bool:
    """Claim ``block`` for this process; False if a live worker holds it. A claim of a process
    that is gone (a run stopped) is taken over."""
    path = out / "claims" / block.name
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        try:
            os.kill(int(path.read_text() or "0"), 0)
            return False
        except (ProcessLookupError, ValueError):
            path.write_text(str(os.getpid()))
            return True
    with os.fdopen(fd, "w") as f:
        f.write(str(os.getpid()))
    return True


def run_block(block: Block, games: dict[Path, tuple[Game, NativeEngineGame]],
              cap: int = MOVE_CAP) -> dict[str, Any]:
    if block.path not in games:
        games.clear()  # one game compiled at a time: blocks come rule set by rule set
        games[block.path] = pair(block.path)
    py, nat = games[block.path]
    start = time.process_time()
    played = [play_pair(py, nat, block.path.stem, seed, cap)
              for seed in range(block.first, block.first + block.games)]
    return {"block": block.name, "family": block.family, "game": block.path.stem,
            "first": block.first, "games": len(played), "moves": sum(p.moves for p in played),
            "capped": sum(p.capped for p in played), "cpu": round(time.process_time() - start, 3),
            "mismatches": [str(p.mismatch) for p in played if p.mismatch],
            "digests": [[p.moves, p.play, p.view] for p in played]}


def run(out: Path, per_family: int, calibrate: int, cap: int = MOVE_CAP,
        first_seed: int = 0) -> None:
    (out / "claims").mkdir(parents=True, exist_ok=True)
    plan = _plan(out, per_family, calibrate, cap, first_seed)
    now = _identity()
    if any(now[k] != plan[k] for k in ("sources", "extension")):
        sys.exit(f"the run under {out} checks the engines of {plan['commit']}; this worktree "
                 "plays others")
    todo = blocks(plan["per_family"], plan["order"], plan.get("first_seed", 0))
    games: dict[Path, tuple[Game, NativeEngineGame]] = {}
    sink = out / f"results-{os.getpid()}.jsonl"
    for block in todo:
        if block.name in {r["block"] for r in results(out)} or not _claim(out, block):
            continue
        row = run_block(block, games, plan["cap"])
        with sink.open("a") as f:
            f.write(json.dumps(row) + "\n")
        done = sum(1 for _ in results(out))
        print(f"{time.strftime('%H:%M:%S')} {done}/{len(todo)} {block.family} {block.name}: "
              f"{row['games']} games, {row['moves']} moves, {row['capped']} capped, "
              f"{row['cpu']} s, {len(row['mismatches'])} mismatches", flush=True)
        for m in row["mismatches"]:
            print("  MISMATCH", m, flush=True)


def summary(out: Path) -> str:
    plan = json.loads((out / "plan.json").read_text())
    rows = list(results(out))
    per: dict[str, dict[str, Any]] = {}
    mismatches = []
    for r in rows:
        f = per.setdefault(r["family"], {"games": 0, "moves": 0, "capped": 0, "cpu": 0.0,
                                         "names": set(), "mismatches": 0})
        for k in ("games", "moves", "capped", "cpu"):
            f[k] += r[k]
        f["names"].add(r["game"])
        f["mismatches"] += len(r["mismatches"])
        mismatches += r["mismatches"]
    planned = blocks(plan["per_family"], plan["order"], plan.get("first_seed", 0))
    lines = [f"commit {plan['commit']}, extension sha256 {plan['extension'][:16]}, move cap "
             f"{plan['cap']}, outcomes on {plan['outcome_share']:.0%} of moves; "
             f"{len(rows)}/{len(planned)} blocks done",
             f"{'family':24s} {'sets':>4s} {'games':>7s} {'moves':>10s} {'capped':>7s} "
             f"{'CPU s':>8s} {'mismatch':>8s}"]
    for family in (f for f in plan["order"] if f in per):
        f = per[family]
        lines.append(f"{family:24s} {len(f['names']):4d} {f['games']:7d} {f['moves']:10d} "
                     f"{f['capped'] / f['games']:7.1%} {f['cpu']:8.0f} {f['mismatches']:8d}")
    games = sum(f["games"] for f in per.values())
    lines.append(f"{'total':24s} {'':4s} {games:7d} {sum(f['moves'] for f in per.values()):10d} "
                 f"{sum(f['capped'] for f in per.values()) / max(games, 1):7.1%} "
                 f"{sum(f['cpu'] for f in per.values()):8.0f} {len(mismatches):8d}")
    return "\n".join(lines + [f"MISMATCH {m}" for m in mismatches])


def check(out: Path, every: int, views: bool, family: str | None) -> int:
    """Replay the stored games (one in ``every`` of each block) on the native engine alone
    against their digests; a game that differs is played again on both engines to name the
    step. The number of games that differ."""
    cap = json.loads((out / "plan.json").read_text())["cap"]
    bad = checked = 0
    start = time.process_time()
    games: dict[Path, tuple[Game, NativeEngineGame]] = {}
    paths = {p.stem: p for ps in families().values() for p in ps}
    for r in results(out):
        if family is not None and r["family"] != family:
            continue
        path = paths[r["game"]]
        block = Block(r["family"], path, r["first"], r["games"])
        if path not in games:
            games.clear()
            games[path] = pair(path)
        py, nat = games[path]
        for k in range(0, r["games"], every):
            seed = block.first + k
            moves, play, view = r["digests"][k]
            got = replay_native(nat, seed, cap, views)
            checked += 1
            if (got.moves, got.play) != (moves, play) or (views and got.view != view):
                bad += 1
                why = play_pair(py, nat, path.stem, seed, cap).mismatch
                print(f"DIGEST {path.stem} seed {seed}: "
                      f"{why or 'differs from the stored digest; the engines agree now'}",
                      flush=True)
    print(f"{checked} games checked on the native engine, {bad} differ, "
          f"{time.process_time() - start:.0f} CPU s")
    return bad


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the long differential run of the two engines")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play (or go on playing) the run under OUT")
    r.add_argument("out", type=Path)
    r.add_argument("--per-family", type=int, default=10_000)
    r.add_argument("--calibrate", type=int, default=2, help="games per rule set timed to order "
                   "the families")
    r.add_argument("--cap", type=int, default=MOVE_CAP, help="moves per game (a new run only)")
    r.add_argument("--first-seed", type=int, default=0, help="the first seed of each rule set "
                   "(a new run only: a deeper pass plays other deals than the first run)")
    s = sub.add_parser("summary", help="print the run's totals")
    s.add_argument("out", type=Path)
    c = sub.add_parser("check", help="the native engine alone against the stored digests")
    c.add_argument("out", type=Path)
    c.add_argument("--every", type=int, default=1, help="check one game in this many")
    c.add_argument("--views", action="store_true", help="also the views' digest (traces the "
                   "memory on the Python engine: slower)")
    c.add_argument("--family")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args.out, args.per_family, args.calibrate, args.cap, args.first_seed)
    elif args.command == "summary":
        print(summary(args.out))
    else:
        return 1 if check(args.out, args.every, args.views, args.family) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
