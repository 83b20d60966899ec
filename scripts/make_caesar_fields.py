#!/usr/bin/env python
"""Make the shipped Circus Maximus reference fields (``caesar_sim/fields``) and what they play with.

For each player count:

1. the default population without its ``distilled`` members is solved (`caesar meta`): at 3, 4
   and 5 players its equilibrium is `tuned` alone, so the next step distills against `tuned`
   (``--against tuned``; against the field file otherwise);
2. ``distilled`` is fitted to ``mc``'s decisions against that field (`caesar distill`, expert
   iteration) -> ``caesar_sim/weights/distilled-<P>p.json`` (skipped with ``--keep-distilled``);
3. the whole default population is solved with PSRO rounds (`caesar meta --oracle-rounds`: `tune`
   and `distill` against the mixture join when they gain > 0.01, CI lower bound; `mc` with field
   rollouts is measured) -> ``fields/reference-<P>p.json``, its payoff table
   ``fields/payoffs-<P>p.csv``, the oracle's weights files ``fields/br*-<P>p-*.json`` and its
   record ``fields/oracle-<P>p.csv``.

With ``--train`` the learned `net` comes first instead of steps 1 and 2: `caesar train` (expert
iteration with self-play from the shipped reference field, ``--train-*`` options) makes the
network, which is installed as ``caesar_sim/weights/net-<P>p.npz`` (its file records the training
command, seeds and every iteration's figures); step 3 then solves the default population (with
`net` and `net:temp=0.25` in it) together with the former field's members (their weights files
travel along). ``--from-train DIR`` installs the last network of an earlier `caesar train` run in
DIR (``DIR/<P>p``) instead of training again.

Every step is seeded from ``--seed``; the field file records this command. The audit
(``scripts/audit_caesar_fields.py``) then measures, on seeds of its own, what gains against it.

    python scripts/make_caesar_fields.py                      # 3, 4 and 5 players
    python scripts/make_caesar_fields.py --train --oracle-rounds 0    # the net fields
    python scripts/make_caesar_fields.py --players 4 --quick  # a smoke run into a temporary folder
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("-n", type=int, default=20_000, help="games per profile")
    ap.add_argument("--oracle-rounds", type=int, default=2)
    ap.add_argument("--oracle-games", type=int, default=4_000)
    ap.add_argument("--distill-games", type=int, default=2_000)
    ap.add_argument("--distill-iterations", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep-distilled", action="store_true", help="use the shipped distilled weights as they are")
    ap.add_argument("--quick", action="store_true", help="small numbers, written to a temporary folder")
    ap.add_argument("--train", action="store_true", help="train net first (caesar train) and solve with it")
    ap.add_argument("--from-train", default=None, metavar="DIR", help="install the nets of earlier caesar train runs "
                                                                      "(DIR/<P>p) instead of training")
    ap.add_argument("--train-iterations", type=int, default=5)
    ap.add_argument("--train-games", type=int, default=3000)
    args = ap.parse_args()
    if args.quick:
        args.n, args.oracle_rounds, args.oracle_games, args.distill_games, args.distill_iterations = 300, 1, 100, 30, 1

    from tabletop_mc.field import field_from_json
    from caesar_sim.fieldplay import population
    from caesar_sim.strategy import parse_strategy

    package = Path(str(resources.files("caesar_sim")))
    fields_dir = package / "fields" if not args.quick else Path(tempfile.mkdtemp(prefix="caesar-fields-"))
    weights_dir = package / "weights" if not args.quick else fields_dir
    command = "python scripts/make_caesar_fields.py " + " ".join(sys.argv[1:])
    caesar = [sys.executable, "-m", "caesar_sim.cli"]
    for players in args.players:
        t0 = time.perf_counter()
        if args.train or args.from_train:
            out = install_net(players, args, caesar, weights_dir, fields_dir, command)
            f1 = publish(players, out, fields_dir, command, {"net": f"caesar_sim/weights/net-{players}p.npz"})
            print(f"{players}p: reference field {f1.text()} ({time.perf_counter() - t0:.0f} s) -> {fields_dir}",
                  flush=True)
            continue
        pop = population("default", players)
        base = [m for m in pop.members if not m.startswith("distilled")]
        work = Path(tempfile.mkdtemp(prefix=f"caesar-meta-{players}p-"))
        (work / "p0.toml").write_text("members = [" + ", ".join(f'"{m}"' for m in base) + "]\n")
        subprocess.run(caesar + ["meta", "--population", str(work / "p0.toml"), "--players", str(players), "-n",
                                 str(args.n), "--seed", str(args.seed), "--out", str(work / "p0")], check=True,
                       stdout=subprocess.DEVNULL)
        f0 = field_from_json((work / "p0" / "field.json").read_text(), "F0")
        against = f0.support[0][0] if len(f0.support) == 1 else f"field:{work / 'p0' / 'field.json'}"
        print(f"{players}p: F0 = {f0.text()}; distilling against {against}", flush=True)
        target = weights_dir / f"distilled-{players}p.json"
        if not args.keep_distilled:
            subprocess.run(caesar + ["distill", "--players", str(players), "--against", against, "--games",
                                     str(args.distill_games), "--holdout", str(max(args.distill_games // 4, 20)),
                                     "--iterations", str(args.distill_iterations), "--rollouts", "16", "--seed",
                                     str(args.seed), "--out", str(target)], check=True)
        parse_strategy(f"distilled@{target}", players)
        if args.quick:   # the temporary population plays the quick distilled weights
            members = [m.replace("distilled", f"distilled@{target}", 1) if m.startswith("distilled") else m
                       for m in pop.members]
            (work / "pop.toml").write_text("members = [" + ", ".join(f'"{m}"' for m in members) + "]\n")
        pop_spec = str(work / "pop.toml") if args.quick else "default"
        out = work / "p1"
        subprocess.run(caesar + ["meta", "--population", pop_spec, "--players", str(players), "-n", str(args.n),
                                 "--oracle-rounds", str(args.oracle_rounds), "--oracle-games", str(args.oracle_games),
                                 "--seed", str(args.seed), "--out", str(out)], check=True)
        f1 = publish(players, out, fields_dir, command, {"F0": f0.text(), "distilled_against": against})
        print(f"{players}p: reference field {f1.text()} ({time.perf_counter() - t0:.0f} s) -> {fields_dir}",
              flush=True)
        shutil.rmtree(work, ignore_errors=True)


def publish(players: int, out: Path, fields_dir: Path, command: str, notes: dict):
    """Copy a `caesar meta` run's field (as ``reference-<P>p.json``), payoff table, best responses and oracle
    record from ``out`` into ``fields_dir``; returns the field."""
    from tabletop_mc.field import Field, field_from_json, field_to_json
    f1 = field_from_json((out / "field.json").read_text(), "F1")
    payoffs = f"payoffs-{players}p.csv"
    shutil.copyfile(out / f1.payoffs, fields_dir / payoffs)
    for br in out.glob(f"br*-{players}p-*.json"):
        shutil.copyfile(br, fields_dir / br.name)
    if (out / "oracle.csv").exists():
        shutil.copyfile(out / "oracle.csv", fields_dir / f"oracle-{players}p.csv")
    data = {k: getattr(f1, k) for k in Field.__dataclass_fields__}
    data.update(payoffs=payoffs, command=command, notes={**f1.notes, "meta_command": f1.command, **notes})
    (fields_dir / f"reference-{players}p.json").write_text(field_to_json(Field(**data)))
    return f1


def install_net(players: int, args, caesar: list[str], weights_dir: Path, fields_dir: Path, command: str) -> Path:
    """Train `net` (or take an earlier run's), install it as ``weights/net-<P>p.npz`` and solve the default
    population with the former field's members; returns the `caesar meta` output folder."""
    from tabletop_mc.field import field_from_json
    from caesar_sim.fieldplay import population
    from caesar_sim.strategy import parse_strategy

    work = Path(tempfile.mkdtemp(prefix=f"caesar-net-{players}p-"))
    train = Path(args.from_train) / f"{players}p" if args.from_train else work / "train"
    if not args.from_train:
        subprocess.run(caesar + ["train", "--players", str(players), "--iterations", str(args.train_iterations),
                                 "--games", str(args.train_games), "--seed", str(args.seed), "--threads", "1",
                                 "--out", str(train)], check=True)
    history = json.loads((train / "field.json").read_text())["notes"]["training"]
    last = train / history[-1].get("network", f"net-it{len(history)}-{players}p.npz")   # older runs: by count
    shutil.copyfile(last, weights_dir / f"net-{players}p.npz")
    parse_strategy("net", players)       # the installed file loads
    former = field_from_json((fields_dir / f"reference-{players}p.json").read_text(), "former")
    members = list(population("default", players).members)
    for m, w in former.support:
        members.append(m)
        _, at, path = m.split(":")[0].partition("@")
        if at:
            shutil.copyfile(fields_dir / path, work / path)
    out = work / "p1"
    out.mkdir()
    for m in members:
        _, at, path = m.split(":")[0].partition("@")
        if at:
            shutil.copyfile(work / path, out / path)
    (work / "pop.toml").write_text("members = [" + ", ".join(f'"{m}"' for m in dict.fromkeys(members)) + "]\n")
    subprocess.run(caesar + ["meta", "--population", str(work / "pop.toml"), "--players", str(players), "-n",
                             str(args.n), "--oracle-rounds", str(args.oracle_rounds), "--oracle-games",
                             str(args.oracle_games), "--seed", str(args.seed), "--out", str(out)], check=True,
                   cwd=out)   # the members' weights files are named relative to the field's folder
    return out


if __name__ == "__main__":
    main()
