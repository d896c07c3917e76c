"""make arena (bench/arena.py, issue 28): the levels' first places over seeded deals, with intervals, and their
summary in make bench's report. Not timed: these check the arithmetic and the plumbing on a few tiny deals."""

from __future__ import annotations

import json

from bench import arena, report


def test_ties_share_first_place():
    outcome = [
        {"seat": 0, "rank": 1, "score": 3},
        {"seat": 1, "rank": 1, "score": 3},
        {"seat": 2, "rank": 3, "score": 1},
    ]
    assert [arena.first_place_share(outcome, seat) for seat in range(3)] == [0.5, 0.5, 0.0]


def test_the_interval_holds_the_share_and_narrows_with_more_deals():
    few = arena.confidence([1, 0, 1, 0])
    many = arena.confidence([1, 0] * 200)
    assert few[1] <= few[0] <= few[2] and many[1] <= many[0] <= many[2]
    assert many[2] - many[1] < few[2] - few[1]


def test_a_pair_of_levels_is_played_over_rotated_seeded_deals_and_reported(tmp_path, monkeypatch):
    row = arena.run_pair("hidden-number", 2, "strong", "normal", deals=4, budget=4, log=lambda _m: None)
    assert row["deals"] == 4 and 0 <= row["share"] <= 1 and row["fair_share"] == 0.5
    assert row["ci95"][0] <= row["share"] <= row["ci95"][1]
    assert row["strong_decision_cpu_s"]["decisions"] > 0
    again = arena.run_pair("hidden-number", 2, "strong", "normal", deals=4, budget=4, log=lambda _m: None)
    assert again["first_places"] == row["first_places"]  # seeded: the same deals, the same games
    out = tmp_path / "arena.json"
    out.write_text(
        json.dumps({"command": "python -m bench.arena --quick", "quick": True, "when": "now", "rows": [row]})
    )
    monkeypatch.setattr(arena, "OUT", out)
    section = "\n".join(report._arena_markdown())
    assert "## Bot levels (arena)" in section and "| hidden-number | 2 | strong vs normal | 4 |" in section


def test_the_command_writes_its_results(tmp_path, capsys):
    out = tmp_path / "arena.json"
    assert arena.main(["--quick", "--only", "hidden-number", "--players", "2", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["high"], r["low"]) for r in rows] == [("strong", "normal"), ("normal", "easy")]
    assert "strong vs normal" in capsys.readouterr().out
