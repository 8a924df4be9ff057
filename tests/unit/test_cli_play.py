"""``arena play`` client logic without a server: resending after a version conflict, and
errors reported as one line (the full game runs in tests/e2e/test_cli_play.py)."""
from __future__ import annotations

from click.testing import CliRunner

from cli.http_client import ApiError
from cli.main import main
from cli.play import _send, auto_chooser

DRAFT = {"type": "draft", "card": "001"}


class FakeClient:
    """Answers ``act`` from a script of results/exceptions; ``legal_actions`` from a list."""

    def __init__(self, acts, legal):
        self.acts, self.legal, self.sent = list(acts), list(legal), []

    def act(self, match_id, token, command, expected_version=None):
        self.sent.append((command, expected_version))
        outcome = self.acts.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def legal_actions(self, match_id, token):
        return self.legal.pop(0)


def _conflict() -> ApiError:
    return ApiError(409, {"code": "version_conflict", "detail": "moved on",
                          "current_version": 13})


def test_a_still_legal_command_is_resent_at_the_new_version():
    client = FakeClient([_conflict(), {"version": 14, "events": []}],
                        [{"version": 13, "actions": [DRAFT]}])
    assert _send(client, "m", "t", DRAFT, 12) == {"version": 14, "events": []}
    assert client.sent == [(DRAFT, 12), (DRAFT, 13)]


def test_a_command_no_longer_legal_is_not_resent():
    client = FakeClient([_conflict()], [{"version": 13, "actions": [{"type": "draft",
                                                                      "card": "002"}]}])
    assert _send(client, "m", "t", DRAFT, 12) is None
    assert len(client.sent) == 1


def test_a_rule_error_is_raised():
    client = FakeClient([ApiError(422, {"code": "card_not_in_hand"})], [])
    try:
        _send(client, "m", "t", DRAFT, 12)
    except ApiError as exc:
        assert exc.code == "card_not_in_hand"
    else:
        raise AssertionError("the 422 was swallowed")


def test_auto_chooser_is_reproducible_with_a_seed():
    actions = [{"type": "draft", "card": f"{i:03}"} for i in range(1, 8)]
    first, again = auto_chooser(5), auto_chooser(5)
    picks = [first(actions) for _ in range(20)]
    assert picks == [again(actions) for _ in range(20)]
    assert all(0 <= p < 7 for p in picks) and len(set(picks)) > 1


def test_an_unreachable_server_is_one_error_line():
    result = CliRunner().invoke(main, ["play", "--url", "http://127.0.0.1:1", "--auto"])
    assert result.exit_code == 1
    assert "cannot reach the server at http://127.0.0.1:1" in result.output
