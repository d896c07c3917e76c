"""``make run`` as a newcomer meets it (issue 19, point 12): a taken port gives a clear message, a taken
mail-catcher port is replaced by a free one, and SITE_URL follows PORT."""

from __future__ import annotations

import socket

import pytest

from mammamia import run


@pytest.fixture
def taken_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def test_a_taken_port_is_not_free(taken_port):
    assert not run.port_is_free(taken_port)


def test_a_taken_mail_port_is_replaced_by_a_free_one(taken_port):
    other = run.free_port(taken_port)
    assert other != taken_port and run.port_is_free(other)


def test_a_free_preferred_port_is_kept():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert run.free_port(port) == port


def test_make_run_on_a_taken_port_stops_with_a_clear_message(taken_port, monkeypatch, capsys):
    monkeypatch.setenv("PORT", str(taken_port))
    assert run.main() == 1
    assert f"port {taken_port} is taken" in capsys.readouterr().err
