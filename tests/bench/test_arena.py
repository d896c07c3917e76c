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
    row = arena.Row("hidden-number", 2, "strong", "normal", budget=4)
    for deal in range(1, 5):
        row.add(row.play(deal))
    summary = row.summary()
    assert summary["deals"] == 4 and 0 <= summary["share"] <= 1 and summary["fair_share"] == 0.5
    assert summary["ci95"][0] <= summary["share"] <= summary["ci95"][1]
    assert summary["strong_decision_cpu_s"]["decisions"] > 0
    again = arena.Row("hidden-number", 2, "strong", "normal", budget=4)
    assert [again.play(deal)["share"] for deal in range(1, 5)] == [row.shares[deal] for deal in range(1, 5)]
    out = tmp_path / "arena.json"
    out.write_text(
        json.dumps({"command": "python -m bench.arena --quick", "quick": True, "when": "now", "rows": [summary]})
    )
    monkeypatch.setattr(arena, "OUT", out)
    section = "\n".join(report._arena_markdown())
    assert "## Bot levels (arena)" in section and "| hidden-number | 2 | strong vs normal | 4 |" in section


def test_the_command_writes_its_results(tmp_path, capsys):
    out = tmp_path / "arena.json"
    assert (
        arena.main(
            [
                "--quick",
                "--only",
                "hidden-number",
                "--players",
                "2",
                "--out",
                str(out),
                "--records",
                str(tmp_path / "deals.jsonl"),
            ]
        )
        == 0
    )
    rows = json.loads(out.read_text())["rows"]
    assert [(r["high"], r["low"]) for r in rows] == [("strong", "normal"), ("normal", "easy")]
    assert "strong vs normal" in capsys.readouterr().out


def run(tmp_path, *extra):
    out, records = tmp_path / "arena.json", tmp_path / "deals.jsonl"
    base = ["--only", "hidden-number", "--players", "2", "--pairs", "strong-normal", "--budget", "4"]
    assert arena.main([*base, "--out", str(out), "--records", str(records), *extra]) == 0
    return json.loads(out.read_text())["rows"][0], arena.read_records(records)


def test_a_run_extends_the_records_and_skips_the_deals_already_played(tmp_path):
    first, records = run(tmp_path, "--deals", "3")
    assert first["deals"] == 3 and sorted(r["deal"] for r in records) == [1, 2, 3]
    second, records = run(tmp_path, "--deals", "5", "--block", "2")
    assert second["deals"] == 5 and sorted(r["deal"] for r in records) == [1, 2, 3, 4, 5]  # 1-3 not replayed
    summary, again = run(tmp_path, "--summary")
    assert again == records and summary["first_places"] == second["first_places"]


def test_records_of_other_bots_do_not_count(tmp_path):
    _, records = run(tmp_path, "--deals", "2")
    stale = {**records[0], "deal": 3, "fingerprint": "an-older-search", "share": 1.0}
    with (tmp_path / "deals.jsonl").open("a") as out:
        out.write(json.dumps(stale) + "\n")
    summary, _ = run(tmp_path, "--summary")
    assert summary["deals"] == 2
    row, _ = run(tmp_path, "--deals", "3")
    assert row["deals"] == 3  # deal 3 played again under the current fingerprint


def test_the_fingerprint_follows_the_budget_and_the_code_not_its_comments(tmp_path):
    assert arena.fingerprint("hidden-number", 4) != arena.fingerprint("hidden-number", 5)
    plain, commented = tmp_path / "a.py", tmp_path / "b.py"
    plain.write_text("def f(x):\n    return x + 1\n")
    commented.write_text('def f(x):\n    """Adds one."""\n    # why\n    return x + 1\n')
    assert arena._code_digest(plain) == arena._code_digest(commented)
    commented.write_text("def f(x):\n    return x + 2\n")
    assert arena._code_digest(plain) != arena._code_digest(commented)


def test_a_second_process_takes_the_seeds_from_first_up(tmp_path):
    row, records = run(tmp_path, "--first", "3", "--deals", "4")
    assert sorted(r["deal"] for r in records) == [3, 4] and row["deals"] == 2


def test_the_readme_block_is_rewritten_from_the_records_and_says_which_rows_are_short(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Site\n\n<!-- arena-table -->\nold figures\n<!-- /arena-table -->\n\nAfter.\n")
    run(tmp_path, "--deals", "3")
    run(tmp_path, "--summary", "--readme", str(readme))
    text = readme.read_text()
    assert "old figures" not in text and text.startswith("# Site\n") and text.endswith("\n\nAfter.\n")
    assert "1 of 1 rows at 3–3 of the 400 deals" in text
    assert "| hidden-number | 2 | strong vs normal | 3 |" in text


def test_the_results_go_into_a_folder_that_does_not_exist_yet(tmp_path):
    # A fresh clone has no bench/out/: `--out bench/out/arena-b.json` crashed after the first block.
    out, records = tmp_path / "out" / "arena-b.json", tmp_path / "deals.jsonl"
    base = ["--only", "hidden-number", "--players", "2", "--pairs", "strong-normal", "--budget", "4"]
    assert arena.main([*base, "--deals", "1", "--out", str(out), "--records", str(records)]) == 0
    assert json.loads(out.read_text())["rows"][0]["deals"] == 1
