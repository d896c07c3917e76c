def test_log_tail_keeps_the_whole_current_round_within_bounds():
    from games.tables import LOG_TAIL, LOG_TAIL_MAX, log_tail

    short_round = [{"type": "turn"}] * 100 + [{"type": "round"}] + [{"type": "turn"}] * 10
    assert log_tail(short_round) == short_round[-LOG_TAIL:]
    long_round = [{"type": "turn"}] * 5 + [{"type": "round"}] + [{"type": "turn"}] * 80
    assert log_tail(long_round) == long_round[5:]
    endless_round = [{"type": "round"}] + [{"type": "turn"}] * (LOG_TAIL_MAX + 50)
    assert len(log_tail(endless_round)) == LOG_TAIL
