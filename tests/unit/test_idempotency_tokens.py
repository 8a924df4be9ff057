"""The derived seat tokens of keyed creations and claims (service/usecases/idempotency.py)."""

from __future__ import annotations

from service.tokens import new_token
from service.usecases.idempotency import derive_token, hkdf_sha256, new_salt, scope_digest


def test_hkdf_matches_rfc_5869_test_case_1():
    okm = hkdf_sha256(bytes([0x0B] * 22), bytes(range(0x0D)), bytes(range(0xF0, 0xFA)))
    assert okm.hex() == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"


def test_tokens_depend_on_key_salt_scope_and_seat_and_look_like_new_tokens():
    salt = new_salt()
    token = derive_token("a" * 36, salt, ("join", "m1", 1), 1)
    assert token == derive_token("a" * 36, salt, ("join", "m1", 1), 1)
    assert len(token) == len(new_token()) == 43
    others = {
        derive_token("b" * 36, salt, ("join", "m1", 1), 1),
        derive_token("a" * 36, new_salt(), ("join", "m1", 1), 1),
        derive_token("a" * 36, salt, ("join", "m2", 1), 1),
        derive_token("a" * 36, salt, ("join", "m1", 1), 2),
    }
    assert token not in others and len(others) == 4


def test_a_record_is_filed_under_a_digest_never_the_key():
    digest = scope_digest(("create",), "secret-key-0123456789")
    assert "secret" not in digest and len(digest) == 64
    assert digest != scope_digest(("fork", "m1"), "secret-key-0123456789")
