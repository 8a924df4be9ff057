"""Seat tokens (service/tokens.py)."""

import hashlib

from service.tokens import find_seat, new_token, token_digest


def test_tokens_are_random_url_safe_and_stored_as_sha256():
    a, b = new_token(), new_token()
    assert (
        a != b
        and len(a) >= 43
        and set(a) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    )
    assert token_digest(a) == hashlib.sha256(a.encode()).hexdigest()


def test_find_seat_matches_only_the_right_token():
    tokens = {0: new_token(), 2: new_token()}
    digests = {seat: token_digest(t) for seat, t in tokens.items()}
    assert find_seat(digests, tokens[2]) == 2
    assert find_seat(digests, tokens[0]) == 0
    assert find_seat(digests, tokens[0] + "x") is None
    assert find_seat(digests, token_digest(tokens[0])) is None  # the digest is not a token
