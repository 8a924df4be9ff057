"""Which Redis database each pytest process of a run uses.

``ARENA_TEST_REDIS_URL`` names the *base* database (default
:data:`DEFAULT_URL`). A plain run uses it as it is. Under pytest-xdist, worker ``gwN`` uses
database ``base + N`` on the same server: :func:`configure_process` (called from
``pytest_configure`` in tests/conftest.py, before any test module is imported) rewrites
``ARENA_TEST_REDIS_URL`` in the worker's environment, so fixtures, test modules and the
processes they start (workers, servers, scripts) all see the worker's own database. RQ keeps
a few keys no key prefix covers (``rq:workers``, ``rq:clean_groups``, scheduler locks), which
is why workers get databases of their own rather than prefixes of their own.

``ARENA_TEST_REDIS_BASE_URL`` keeps the base URL (a nested pytest started by a test inherits
the already rewritten URL and uses it as it is).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

#: the test Redis when ``ARENA_TEST_REDIS_URL`` is not set (xdist workers: databases 12-15)
DEFAULT_URL = "redis://127.0.0.1:6379/12"
#: Redis's default ``databases`` setting: databases 0..15
DATABASES = 16


def with_db(url: str, db: int) -> str:
    """``url`` with its path set to database ``db`` (``redis://h:p/3`` -> ``redis://h:p/db``)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


def db_of(url: str) -> int:
    """The database number of ``url`` (0 when it names none)."""
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else 0


def worker_index(worker_id: str | None) -> int | None:
    """``"gw3"`` -> 3; None for the controller or a run without xdist."""
    if not worker_id or not worker_id.startswith("gw") or not worker_id[2:].isdigit():
        return None
    return int(worker_id[2:])


def configure_process(worker_id: str | None) -> tuple[str, str]:
    """Set ``ARENA_TEST_REDIS_URL`` for this process (see module docstring); returns
    ``(url, where it came from)``. Raises ValueError when the worker's database would be
    past :data:`DATABASES` - 1 (pick a lower base database or fewer workers)."""
    if os.environ.get("ARENA_TEST_REDIS_BASE_URL"):  # a pytest started by a test
        url = os.environ.get("ARENA_TEST_REDIS_URL") or os.environ["ARENA_TEST_REDIS_BASE_URL"]
        os.environ["ARENA_TEST_REDIS_URL"] = url
        return url, "ARENA_TEST_REDIS_URL, inherited from the test process that started this one"
    if os.environ.get("ARENA_TEST_REDIS_URL"):
        base, source = os.environ["ARENA_TEST_REDIS_URL"], "ARENA_TEST_REDIS_URL"
    else:
        base, source = DEFAULT_URL, "default: ARENA_TEST_REDIS_URL is not set"
    url = base
    index = worker_index(worker_id)
    if index is not None:
        db = db_of(base) + index
        if db >= DATABASES:
            raise ValueError(
                f"xdist worker {worker_id} would use database {db} of {base}: "
                f"pick a base database <= {DATABASES - 1 - index} or fewer workers"
            )
        url = with_db(base, db)
        source += f"; xdist worker {worker_id}: base database + {index}"
        os.environ["ARENA_TEST_REDIS_BASE_URL"] = base
    os.environ["ARENA_TEST_REDIS_URL"] = url
    return url, source
