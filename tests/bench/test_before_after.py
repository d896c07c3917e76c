"""``make bench BENCH_ARGS="--before REV"`` (issue 33): the baseline's rounds pooled with their spread kept, the
before/after table built from one run's results and written between the README's markers, the flame graphs
drawn from py-spy's collapsed stacks, and the two trees' stacks kept apart on one broker and one cache. Not
timed: these check the arithmetic and the plumbing."""

from __future__ import annotations

import pytest

from bench import before, compare, flamegraph, stack


def closed_row(*, moves: int, web_s: float, db_s: float, wall_s: float = 10.0, players: int = 32) -> dict:
    spent = {"web": web_s, "db": db_s}
    return {"players": players, "moves": moves, "pages": 2 * moves, "posts": moves, "wall_s": wall_s,
            "client_cpu_s": 0.5, "server_cpu_s": spent, "moves_per_s": round(moves / wall_s, 1),
            "server_cpu_ms_per_move": round(1000 * (web_s + db_s) / moves, 2), "refused": 0, "games_finished": 0,
            "stalls": 0, "game_page": {"p50_ms": 10.0}, "move_post": {"p50_ms": 20.0}}


def test_the_baselines_rounds_count_as_their_total_cpu_over_their_moves_with_each_round_kept():
    first = closed_row(moves=100, web_s=2.0, db_s=1.0)  # 30 ms a move
    second = closed_row(moves=200, web_s=8.0, db_s=1.0)  # 45 ms a move
    row = before.pooled([first, second])
    assert row["server_cpu_ms_per_move"] == 40.0  # 12 s over 300 moves, not the mean of 30 and 45
    assert row["moves"] == 300 and row["moves_per_s"] == 15.0  # 300 moves in 20 s
    assert row["server_cpu_s"] == {"web": 10.0, "db": 2.0}
    assert row["rounds"] == [{"server_cpu_ms_per_move": 30.0, "moves_per_s": 10.0},
                             {"server_cpu_ms_per_move": 45.0, "moves_per_s": 20.0}]
    assert before.pooled([first]) is first


def test_the_baselines_database_is_named_after_this_trees_on_the_same_server():
    assert (before.database_url("postgres://postgres@127.0.0.1:5432/mm_bench")
            == "postgres://postgres@127.0.0.1:5432/mm_bench_before")


def test_two_stacks_on_one_broker_take_their_own_queues():
    assert stack.queue_names({}) == ("mammamia-bench", "mammamia-bench-outgoing", "mammamia-bench-slow")
    assert stack.queue_names({"BENCH_QUEUE": "mammamia-bench-before"})[0] == "mammamia-bench-before"
    assert not set(stack.queue_names({})) & set(stack.queue_names({"BENCH_QUEUE": "mammamia-bench-before"}))


def tree(*, move_ms: float, bare_ms: float, page_queries: int, with_current_parts: bool) -> dict:
    page = {"queries": 3, "cpu_ms": 6.0, "sql": ["SELECT games_seat"]}
    cold = {"queries": page_queries, "cpu_ms": 9.0, "sql": ["SELECT games_seat", "SELECT games_seatview"]}
    results = {
        "ceilings": {"framework": {"server_cpu_ms_per_move": bare_ms}},
        "closed_loop": [{**closed_row(moves=100, web_s=move_ms / 20, db_s=move_ms / 20),
                         "server_cpu_ms_per_move": move_ms}],
        "growth": {"bare_request": {"cpu_ms": 3.0},
                   "longest_game": {p: {"game_page": page, "game_page_cold": cold} for p in ("start", "end")}},
        "open_loop_at_capacity": [{"fraction": 0.5, "capacity_moves_per_s": 10.0, "offered_moves_per_s": 5.0,
                                   "game_page": {"p50_ms": 12.0}, "move_post": {"p50_ms": 40.0}}],
        "targets": [],
    }
    if with_current_parts:
        results["targets"] = [{"target": "update latency p50, move commit to every watching page's new partial",
                               "goal": "≤ 150 ms", "measured": "75 ms", "met": True}]
    return results


def test_the_table_gives_each_tree_its_own_ratios_and_a_dash_for_what_the_baseline_did_not_measure():
    old = tree(move_ms=90.0, bare_ms=3.0, page_queries=5, with_current_parts=False)
    new = tree(move_ms=15.0, bare_ms=3.0, page_queries=4, with_current_parts=True)
    rows = {name: (b, a, met) for _, name, b, a, met in compare.issue33_rows(old, new)}
    move = rows["stack CPU per move (closed loop, 32 players) ≤ 6 bare requests"]
    assert move[0].startswith("30.0 (90.0 ms ÷ 3.0 ms)") and move[2] is True
    assert move[1].startswith("**5.0 (15.0 ms ÷ 3.0 ms)") and move[1].endswith("(met)**")
    queries = rows["game page ≤ 4 queries (board cached / first view of a version)"]
    assert queries == ("3 / 5", "**3 / 4 (met)**", True)
    live = next(v for k, v in rows.items() if k.startswith("live updates"))
    assert live[0] == "—" and "75 ms" in live[1]
    assert rows["open loop at half capacity: page p50 ≤ 15 ms, move POST p50 ≤ 25 ms"][2] is False


def test_a_run_with_before_holds_both_sides_and_one_without_asks_for_two_files():
    run = {**tree(move_ms=15.0, bare_ms=3.0, page_queries=4, with_current_parts=True), "machine": {"cores": 2},
           "before": tree(move_ms=90.0, bare_ms=3.0, page_queries=5, with_current_parts=False)}
    old, new = compare.sides(run)
    assert old["closed_loop"][0]["server_cpu_ms_per_move"] == 90.0 and new is run
    assert old["machine"] == {"cores": 2}
    with pytest.raises(SystemExit):
        compare.sides({"closed_loop": []})


def test_the_readme_block_is_replaced_between_its_markers_and_nothing_else():
    text = "intro\n<!-- issue33-table -->\nold table\n<!-- /issue33-table -->\nafter\n"
    assert compare.replace_block(text, "new table") == (
        "intro\n<!-- issue33-table -->\nnew table\n<!-- /issue33-table -->\nafter\n")
    with pytest.raises(ValueError):
        compare.replace_block("no markers here", "new table")


def test_a_flame_graph_merges_a_functions_lines_and_sizes_frames_by_their_samples():
    lines = ["main (app.py:1);view (games/views.py:10) 3", "main (app.py:1);view (games/views.py:12) 1",
             "main (app.py:2);other (x.py:5) 4", "garbage"]
    tree_ = flamegraph.parse(lines)
    assert tree_["n"] == 8
    assert tree_["children"]["main (app.py)"]["children"]["view (games/views.py)"]["n"] == 4
    svg = flamegraph.render(lines, "web-closed-32-game-page")
    assert svg.startswith("<svg") and "view (games/views.py): 4 samples, 50.0 %" in svg


def test_flame_graphs_are_written_beside_each_request_kinds_stacks(tmp_path):
    (tmp_path / "web-closed-32.txt").write_text("main (a.py:1) 2\n")
    (tmp_path / "web-closed-32-game-page.txt").write_text("main (a.py:1) 1\n")
    (tmp_path / "before-web-closed-32.txt").write_text("main (a.py:1) 1\n")
    written = flamegraph.write_svgs(tmp_path, "web-closed-32")
    assert sorted(p.name for p in written) == ["web-closed-32-game-page.svg", "web-closed-32.svg"]


def test_a_flame_graph_merges_the_worker_processes_py_spy_sampled():
    lines = ['process 11:"granian";main (a.py:1) 2', 'process 12:"granian";main (a.py:1) 3']
    assert flamegraph.parse(lines)["children"] == {"main (a.py)": {"n": 5, "children": {}}}


def test_a_target_whose_name_holds_its_runs_figures_shares_one_row_between_the_two_sides():
    def run(offered: str, p50: str) -> dict:
        return {"targets": [{"target": f"open loop at 50% of capacity ({offered} moves/s): game page p50",
                             "goal": "≤ 15 ms", "measured": p50, "met": False}]}

    lines = compare.table(run("5 of 10", "85 ms"), run("12 of 24", "114 ms")).splitlines()
    assert lines[2:] == ["| open loop at 50% of capacity: game page p50 | ≤ 15 ms | 5 of 10 moves/s: 85 ms (missed) "
                         "| 12 of 24 moves/s: 114 ms (missed) |"]
