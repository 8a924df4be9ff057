"""Plays one match of every game on a server against one of its bots: seat 0 is ours (a
random legal action each turn, seeded), seat 1 the game's ``random`` bot (the cheapest
level: any name of ``game.bots`` works, e.g. ``expert``, which thinks for up to a second a move). Prints one JSON
line per game; exits 1 when a match did not finish.

    python clients/python/examples/play_every_game.py http://127.0.0.1:8000
"""

from __future__ import annotations

import json
import random
import sys

from arena_sdk import Arena, play_seat, stream_events


def cheap_bot(bots: list[str]) -> str:
    """``random`` when the game has it, else its first level."""
    return "random" if "random" in bots else bots[0]


def main(base_url: str) -> int:
    arena = Arena(base_url)
    unfinished = 0
    for index, game in enumerate(arena.games()):
        created = arena.create_match(
            game.id, [{"kind": "human"}, {"kind": "bot", "bot": cheap_bot(game.bots)}]
        )
        rng = random.Random(index + 1)
        final = play_seat(
            arena.with_token(created.seats[0].token),
            created.match_id,
            lambda turn, rng=rng: rng.choice(turn.actions),
        )
        streamed = sum(1 for _ in stream_events(arena, created.match_id, max_s=5))
        print(
            json.dumps(
                {
                    "game": game.id,
                    "match_id": created.match_id,
                    "status": final.status,
                    "version": final.version,
                    "streamed": streamed,
                    "result": final.to_dict().get("result"),
                }
            ),
            flush=True,
        )
        unfinished += final.status == "running"
    return 1 if unfinished else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"))
