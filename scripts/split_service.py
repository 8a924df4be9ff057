"""One-off: move service/ modules into sub-packages by concern and rewrite every importer.

Run from the repository root: ``python scripts/split_service.py``. Uses ``git mv`` so that
git's rename detection carries parallel edits into the moved files. Idempotent on a tree
already moved (modules not found at their old path are skipped).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

MAP = {
    # the pure log: wire format of events, their envelopes, the seat roster, export checks
    "codec": "service.log.codec",
    "envelopes": "service.log.envelopes",
    "roster": "service.log.roster",
    "verify": "service.log.verify",
    "match_record": "service.log.match_record",
    # store adapters (Redis, PostgreSQL)
    "event_store": "service.store.event_store",
    "snapshots": "service.store.snapshots",
    "fold_cache": "service.store.fold_cache",
    "match_index": "service.store.match_index",
    "seat_store": "service.store.seat_store",
    "deadline_store": "service.store.deadline_store",
    "compact_store": "service.store.compact_store",
    "archive_store": "service.store.archive_store",
    "keys": "service.store.keys",
    "store_errors": "service.store.store_errors",
    "stores": "service.store.stores",
    "quotas": "service.store.quotas",
    "slots": "service.store.slots",
    "metrics": "service.store.metrics",
    "write_batch": "service.store.write_batch",
    # use cases
    "act": "service.usecases.act",
    "after_append": "service.usecases.after_append",
    "bots": "service.usecases.bots",
    "context": "service.usecases.context",
    "create_join": "service.usecases.create_join",
    "decisions": "service.usecases.decisions",
    "idempotency": "service.usecases.idempotency",
    "lifecycle": "service.usecases.lifecycle",
    "lobby": "service.usecases.lobby",
    "ops": "service.usecases.ops",
    "reads": "service.usecases.reads",
    "turns": "service.usecases.turns",
    # upkeep
    "reconcile": "service.upkeep.reconcile",
    "compaction": "service.upkeep.compaction",
    "archive": "service.upkeep.archive",
    "housekeeping": "service.upkeep.housekeeping",
    # RQ code
    "rq_runtime": "workers.rq_runtime",
    "lean_worker": "workers.lean_worker",
    "turn_queue": "workers.turn_queue",
    "embedded": "workers.embedded",
    "scheduling": "workers.scheduling",
}
# stay at service/: match_service (facade), errors, config, settings, logs, bootstrap, tokens

DOCS = {
    "service.log": "The pure event log: codec, envelopes, roster, verify, match record.",
    "service.store": "Store adapters: Redis (event store, indexes, caches) and PostgreSQL (archive).",
    "service.usecases": "Use cases behind the MatchService facade.",
    "service.upkeep": "Upkeep passes: reconcile, compaction, archive, housekeeping.",
}

ROOTS = ["api", "service", "workers", "cli", "tests", "benchmarks", "docs", "scripts", "domain"]
FILES = ["README.md", "DESIGN.md", "pyproject.toml", "Dockerfile", "docker-compose.yml"]
SUFFIXES = {".py", ".md", ".toml", ".yaml", ".yml", ".cfg", ".ini", ".txt", ".sh", ""}


def move() -> None:
    for pkg, doc in DOCS.items():
        d = Path(*pkg.split("."))
        d.mkdir(exist_ok=True)
        init = d / "__init__.py"
        if not init.exists():
            init.write_text(f'"""{doc}"""\n')
            subprocess.run(["git", "add", str(init)], check=True)
    for old, new in MAP.items():
        src = Path("service") / f"{old}.py"
        if src.exists():
            dst = Path(*new.split(".")).with_suffix(".py")
            subprocess.run(["git", "mv", str(src), str(dst)], check=True)


#: MatchService attributes named like a moved module (``service.keys.events(mid)`` on a
#: MatchService instance): rewritten only where the text is clearly a module path.
COLLIDE = {"keys", "stores", "quotas", "snapshots", "metrics"}


def _dotted(m: re.Match) -> str:
    name, text, start, end = m.group(1), m.string, m.start(), m.end()
    if name in COLLIDE:
        line_start = text.rfind("\n", 0, start) + 1
        line = text[line_start:start].lstrip()
        before = text[start - 1] if start else ""
        after = text[end : end + 2]
        if not (
            line.startswith(("from ", "import ")) or before in "`\"'" or re.match(r"\.[A-Z]", after)
        ):
            return m.group(0)
    return MAP[name]


def rewrite(text: str) -> str:
    names = "|".join(sorted(MAP, key=len, reverse=True))

    # `from service import a, b` -> one line per new home
    def from_service(m: re.Match) -> str:
        indent, items = m.group(1), [s.strip() for s in m.group(2).split(",")]
        out = []
        keep = [i for i in items if i.split(" as ")[0] not in MAP]
        if keep:
            out.append(f"{indent}from service import {', '.join(keep)}")
        for i in items:
            base = i.split(" as ")[0]
            if base in MAP:
                pkg, mod = MAP[base].rsplit(".", 1)
                alias = i[len(base) :]
                out.append(f"{indent}from {pkg} import {mod}{alias}")
        return "\n".join(out)

    text = re.sub(
        r"^([ \t]*)from service import ([A-Za-z_, ]+?)[ \t]*$", from_service, text, flags=re.M
    )
    # dotted module references (imports, :mod:, logger names, docstrings) but not
    # method calls on a variable named `service` (``service.reconcile(...)``)
    text = re.sub(rf"(?<![\w.])service\.({names})\b(?!\s*\()", _dotted, text)
    # paths: service/codec.py -> service/log/codec.py
    text = re.sub(
        rf"(?<![\w/])service/({names})\.py\b",
        lambda m: MAP[m.group(1)].replace(".", "/") + ".py",
        text,
    )
    return text


def main() -> int:
    move()
    paths = [
        p
        for r in ROOTS
        if Path(r).exists()
        for p in Path(r).rglob("*")
        if p.is_file()
        and p.suffix in SUFFIXES
        and ".venv" not in p.parts
        and "__pycache__" not in p.parts
        and p.name != "split_service.py"
    ]
    paths += [Path(f) for f in FILES if Path(f).exists()]
    changed = 0
    for p in paths:
        try:
            text = p.read_text()
        except UnicodeDecodeError:
            continue
        new = rewrite(text)
        if new != text:
            p.write_text(new)
            changed += 1
    print(f"rewrote {changed} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
