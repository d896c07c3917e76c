"""``make bench BENCH_ARGS="--before REV"``: a baseline commit's site measured in the same run as this tree's.

Issue 33 asks its before/after from one run: every target is a ratio against its own tree's bare request, and
the two trees are measured back to back (the 32-player closed loop before, after, before again, to show the
spread). The runner (bench/__main__.py) calls, on this side:

- ``checkout``: ``git archive`` of REV into ``<var>/before-<sha7>/`` (reused while its marker names the same
  commit), with this tree's ``bench/`` copied over the baseline's: the same settings, bare-request view, seeding and
  growth code serve and measure both trees; the load generators run from this tree for both.
- ``prepare``: its own database ``<name>_bench_before``, migrated by its own migrations, its static files, the
  bare request's tables; environment with its own Celery queues (``BENCH_QUEUE``) and cache key prefix
  (``BENCH_CACHE_PREFIX``) on the shared PostgreSQL and Redis; a check first that this venv serves it (the
  baseline's requirements are installed, and every module its site imports comes from its own checkout: else
  ``--before-python`` names another venv's python).
- ``pooled``: the closed loop's rounds of one tree as one row, the rounds kept beside it.

On the baseline's side, ``python -m bench.before`` (run in its checkout, a plan as JSON on stdin, JSON out) does
``check``, ``prepare``, ``seed`` (the pools) and ``growth`` (the bare request, the game page and the move).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench import stack as stack_module
from bench.stack import BASE_DIR

MARKER = ".bench-source"  # the full commit a checkout holds


def resolve(rev: str) -> str:
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=BASE_DIR,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"--before {rev}: no such commit in this repository")
    return done.stdout.strip()


def checkout(commit: str, work_dir: Path) -> Path:
    """The baseline's source at ``<work_dir>/before-<sha7>``, with this tree's bench/ over its own."""
    tree = work_dir / f"before-{commit[:7]}"
    marker = tree / MARKER
    if not (marker.exists() and marker.read_text().strip() == commit):
        if tree.exists():
            shutil.rmtree(tree)
        tree.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=BASE_DIR, capture_output=True,
                                 check=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        marker.write_text(commit + "\n")
    overlay_bench(tree)
    return tree


def overlay_bench(tree: Path) -> list[str]:
    """This tree's bench/*.py over the checkout's (every run: the bench may have changed since)."""
    target = tree / "bench"
    target.mkdir(exist_ok=True)
    copied = []
    for source in sorted((BASE_DIR / "bench").glob("*.py")):
        shutil.copy2(source, target / source.name)
        copied.append(source.name)
    return copied


def database_url(after_url: str) -> str:
    """``<name>_bench_before`` on the same server as this tree's ``<name>_bench``."""
    parts = urlsplit(after_url)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}_before"))


def environment(*, tree: Path, database: str, email_port: int) -> dict[str, str]:
    """The baseline's processes' environment: production settings like this tree's, its own database, queues,
    cache keys and state folder, its checkout first on the path."""
    run_dir = tree / "var" / "bench"
    run_dir.mkdir(parents=True, exist_ok=True)
    env = stack_module.production_environment(database_url=database, email_port=email_port, work_dir=run_dir)
    env.update({"BENCH_QUEUE": "mammamia-bench-before", "BENCH_CACHE_PREFIX": "before", "PYTHONPATH": str(tree),
                "MAMMAMIA_VAR_DIR": str(run_dir)})
    return env


@dataclass
class Baseline:
    """The baseline tree of a run: where it is, how its processes run, and what was measured of it."""

    commit: str
    tree: Path
    python: str
    env: dict[str, str]
    database_url: str
    email_port: int
    results: dict = field(default_factory=dict)
    stack: stack_module.Stack | None = None
    pools: dict = field(default_factory=dict)

    @property
    def run_dir(self) -> Path:
        return Path(self.env["MAMMAMIA_VAR_DIR"])

    def call(self, action: str, plan: dict | None = None, timeout: float = 1800) -> dict:
        return stack_module.run_json_module("bench.before", {"action": action, **(plan or {})}, timeout,
                                            source=self.tree, python=self.python, env=self.env)

    def make_stack(self, **options) -> stack_module.Stack:
        self.stack = stack_module.Stack(env=self.env, work_dir=self.run_dir, email_port=self.email_port,
                                        source=self.tree, python=self.python, label="before", **options)
        return self.stack


def prepare(rev: str, *, work_dir: Path, after_database_url: str, python: str | None, log) -> Baseline:
    """Check out, check, migrate and collect the baseline: a Baseline ready to seed and serve."""
    from bench import ceilings

    commit = resolve(rev)
    started = time.perf_counter()
    tree = checkout(commit, work_dir)
    url = database_url(after_database_url)
    stack_module.recreate_database(url)
    email_port = stack_module.free_port()
    baseline = Baseline(commit=commit, tree=tree, python=python or sys.executable,
                        env=environment(tree=tree, database=url, email_port=email_port), database_url=url,
                        email_port=email_port)
    check = baseline.call("check", {"this_tree": str(BASE_DIR)}, timeout=300)
    baseline.results["source"] = {"rev": rev, "commit": commit, "tree": str(tree.relative_to(BASE_DIR))
                                  if tree.is_relative_to(BASE_DIR) else str(tree), "python": baseline.python,
                                  "database": stack_module.database_name(url), **check}
    problems = [f"requirement not met: {r}" for r in check["unmet"]]
    problems += [f"module from this tree, not the baseline's: {m}" for m in check["foreign_modules"]]
    if problems:
        raise RuntimeError(f"this venv cannot serve {commit[:7]} ({'; '.join(problems[:8])}); give a venv that can "
                           "with --before-python PATH/bin/python")
    baseline.results["source"].update(baseline.call("prepare", timeout=1200))
    ceilings.create_tables(url)
    log(f"baseline {commit[:7]} checked out in {baseline.results['source']['tree']}, its imports checked, "
        f"migrated, static files collected in {time.perf_counter() - started:.1f} s")
    return baseline


def pooled(rows: list[dict]) -> dict:
    """Rounds of the closed loop at one level in one tree as one row: moves, pages and CPU summed (so the CPU per
    move is the rounds' total over their moves), moves/s over their summed windows, latencies of the first round;
    ``rounds`` keeps each round's CPU per move and moves/s (the spread)."""
    if len(rows) == 1:
        return rows[0]
    row = dict(rows[0])
    for key in ("moves", "pages", "posts", "refused", "games_finished", "stalls"):
        row[key] = sum(r.get(key) or 0 for r in rows)
    for key in ("wall_s", "client_cpu_s"):
        row[key] = round(sum(r[key] for r in rows), 3)
    row["server_cpu_s"] = {name: round(sum((r.get("server_cpu_s") or {}).get(name, 0.0) for r in rows), 3)
                           for name in rows[0].get("server_cpu_s") or {}}
    server = sum(row["server_cpu_s"].values())
    row["server_cpu_ms_per_move"] = round(1000 * server / row["moves"], 2) if row["moves"] and server else None
    row["server_cpu_share"] = round(server / row["wall_s"], 3) if row["wall_s"] else None
    row["moves_per_s"] = round(row["moves"] / row["wall_s"], 1) if row["wall_s"] else 0.0
    row["pages_per_s"] = round(row["pages"] / row["wall_s"], 1) if row["wall_s"] else 0.0
    row["rounds"] = [{"server_cpu_ms_per_move": r.get("server_cpu_ms_per_move"), "moves_per_s": r.get("moves_per_s")}
                     for r in rows]
    return row


# The baseline's side: run in its checkout --------------------------------------------------------------


def _requirements_unmet(tree: Path) -> list[str]:
    """The baseline's dependencies (and its bench extra) that this Python does not satisfy."""
    import importlib.metadata
    import tomllib

    try:
        from packaging.requirements import Requirement
    except ImportError:  # nothing to check them with: the import check below still runs
        return []
    project = tomllib.loads((tree / "pyproject.toml").read_text()).get("project", {})
    wanted = [*project.get("dependencies", []), *project.get("optional-dependencies", {}).get("bench", [])]
    unmet = []
    for text in wanted:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            unmet.append(f"{text} (not installed)")
            continue
        if requirement.specifier and not requirement.specifier.contains(version, prereleases=True):
            unmet.append(f"{text} (installed {version})")
    return unmet


def _check(plan: dict) -> dict:
    """Requirements, then Django set up and every URL's view imported: modules loaded from the other tree."""
    tree = Path.cwd().resolve()
    unmet = _requirements_unmet(tree)
    import django

    django.setup()
    from django.urls import get_resolver

    import mammamia.asgi  # noqa: F401 - imported to see where it comes from
    import mammamia.wsgi  # noqa: F401

    get_resolver().url_patterns  # noqa: B018 - imports every view
    other, prefix = Path(plan["this_tree"]).resolve(), Path(sys.prefix).resolve()
    foreign = []
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not path:
            continue
        path = Path(path).resolve()
        if path.is_relative_to(other) and not path.is_relative_to(tree) and not path.is_relative_to(prefix):
            foreign.append(name)
    from django.conf import settings

    return {"unmet": unmet, "foreign_modules": sorted(foreign), "django": django.get_version(),
            "installed_apps": len(settings.INSTALLED_APPS)}


def _prepare(plan: dict) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db.migrations.recorder import MigrationRecorder

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    return {"migrations": MigrationRecorder.Migration.objects.count()}


def _seed(plan: dict) -> dict:
    import django

    django.setup()
    from bench import seed

    return {"pools": seed.http_pools([tuple(entry) for entry in plan["pools"]])}


def _growth(plan: dict) -> dict:
    import django

    django.setup()
    from bench import growth

    def log(message: str) -> None:
        print(f"[before] {message}", file=sys.stderr, flush=True)

    return growth.run(repeat=plan["repeat"], log=log, with_histories=False)


ACTIONS = {"check": _check, "prepare": _prepare, "seed": _seed, "growth": _growth}


def main() -> int:
    plan = json.loads(sys.stdin.read())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    print(json.dumps(ACTIONS[plan["action"]](plan)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
