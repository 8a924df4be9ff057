"""Environment variables: one :class:`Setting` per variable, with the parser every reader
uses, so a bad value is refused when a process starts (one line: the variable, the value
and what is accepted) instead of crashing or answering 500 later.

:data:`SERVICE` holds the variables every process reads (the event store, RQ, the
service's tunables, logging); :mod:`api.settings` adds the HTTP API's. ``docs/
configuration.md`` is rendered from these tables (``python -m api.config_table``).
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: Characters a key prefix may hold (``{``/``}`` would break the cluster hash tags).
PREFIX_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
FLAG_TRUE = ("1", "true", "yes", "on")
FLAG_FALSE = ("0", "false", "no", "off")


class ConfigError(ValueError):
    """A variable's value is not accepted; ``str(error)`` is the one line to print."""

    def __init__(self, name: str, raw: str, accepts: str, reason: str = ""):
        self.name, self.raw, self.accepts = name, raw, accepts
        why = f" ({reason})" if reason else ""
        super().__init__(f"invalid {name}={raw!r}{why}: accepted: {accepts}")


@dataclass(frozen=True)
class Setting:
    """One environment variable.

    Attributes:
        name: the variable.
        default: the value used when it is unset or empty (``None``: unset has a meaning of
            its own, see ``doc``).
        parse: ``str -> value``; raises ``ValueError`` (any message) for a refused string.
        accepts: what ``parse`` accepts, in words (the error line and the docs table).
        doc: one line for the docs table.
        readers: which processes read it: ``api``, ``worker`` (``arena worker`` and the
            embedded worker thread).
    """

    name: str
    default: str | None
    parse: Callable[[str], Any]
    accepts: str
    doc: str
    readers: tuple[str, ...] = ("api", "worker")

    def value(self, env: Mapping[str, str] | None = None, raw: Any = None) -> Any:
        """The parsed value of ``raw`` (default: ``env``'s, default ``os.environ``; unset or
        empty: :attr:`default`, ``None`` when that is ``None``). Raises :class:`ConfigError`."""
        if raw is None:
            raw = (os.environ if env is None else env).get(self.name)
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
            if self.default is None:
                return None
            raw = self.default
        if not isinstance(raw, str):  # a Flask config value set in Python (tests)
            raw = str(int(raw) if isinstance(raw, bool) else raw)
        try:
            return self.parse(raw)
        except ConfigError:
            raise
        except (ValueError, TypeError) as error:
            reason = (
                str(error) if str(error) and not str(error).startswith("invalid literal") else ""
            )
            raise ConfigError(self.name, raw, self.accepts, reason) from None


# -- parsers ------------------------------------------------------------------------------


def integer(minimum: int) -> Callable[[str], int]:
    """Parser of a decimal integer >= ``minimum``."""

    def parse(raw: str) -> int:
        value = int(raw.strip())
        if value < minimum:
            raise ValueError(f"below {minimum}")
        return value

    return parse


def positive_number(raw: str) -> float:
    """A finite decimal number > 0."""
    value = float(raw.strip())
    if not value > 0 or value == float("inf"):
        raise ValueError("not a finite number above 0")
    return value


def flag(raw: str) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case)."""
    value = raw.strip().lower()
    if value not in FLAG_TRUE + FLAG_FALSE:
        raise ValueError("not a flag")
    return value in FLAG_TRUE


def url(*schemes: str) -> Callable[[str], str]:
    """Parser of a URL with one of ``schemes`` and a non-empty rest; returns it unchanged."""

    def parse(raw: str) -> str:
        scheme, sep, rest = raw.strip().partition("://")
        if not sep or scheme.lower() not in schemes or not rest:
            raise ValueError("")
        return raw.strip()

    return parse


def choice(*values: str) -> Callable[[str], str]:
    """Parser of one of ``values`` (exact)."""

    def parse(raw: str) -> str:
        if raw.strip() not in values:
            raise ValueError("")
        return raw.strip()

    return parse


def key_prefix(raw: str) -> str:
    """1-64 characters of ``A-Z a-z 0-9 _ . : -``."""
    if not PREFIX_PATTERN.fullmatch(raw):
        raise ValueError("")
    return raw


def postgres_conninfo(raw: str) -> str:
    """A ``postgresql://`` / ``postgres://`` URL or a libpq ``key=value`` string (parsed by
    psycopg's ``conninfo_to_dict``); returned unchanged."""
    if "://" in raw:
        return url("postgresql", "postgres")(raw)
    from service.store.conninfo import check_conninfo

    check_conninfo(raw)
    return raw.strip()


def text(raw: str) -> str:
    """Any non-empty string, unchanged."""
    return raw


def writable_directory(raw: str) -> str:
    """A directory path this process can write into: an existing directory a file can be
    made in, or a path whose nearest existing parent is a directory a directory can be made
    in (the path itself is created when needed). The check makes and removes a probe."""
    path = os.path.abspath(raw.strip())
    probe = path
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise ValueError("not a directory")
    try:
        if probe == path:
            with tempfile.TemporaryFile(dir=path):
                pass
        else:
            os.rmdir(tempfile.mkdtemp(dir=probe))
    except OSError as exc:
        raise ValueError(f"not writable: {exc.strerror}") from None
    return path


def module_attribute(raw: str) -> str:
    """``package.module[:attribute]`` (the attribute defaults to ``ENGINES``)."""
    if not re.fullmatch(r"[A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?", raw.strip()):
        raise ValueError("")
    return raw.strip()


def game_packages(raw: str) -> tuple[str, ...]:
    """Comma-separated dotted package names (``examples,mygames.chess``), each of a package
    that exists (``importlib.util.find_spec``: the package is not imported, so start-up
    stays cheap; ``domain.games.registry()`` imports and checks the games on first use)."""
    from domain.games import PACKAGES_ENV, GameRegistryError, extra_packages

    try:
        names = extra_packages({PACKAGES_ENV: raw})
    except GameRegistryError:
        raise ValueError("not a list of dotted module names") from None
    for name in names:
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ValueError(f"no package {name!r} on the Python path")
    return names


def log_level(raw: str) -> str:
    """A :mod:`logging` level name, upper-cased."""
    value = raw.strip().upper()
    if value not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ValueError("")
    return value


STORE_URL_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")
SECONDS = "a number of seconds above 0"


def _s(name, default, parse, accepts, doc, readers=("api", "worker")) -> Setting:
    return Setting(name, default, parse, accepts, doc, readers)


#: The variables every process reads (service/config.py, service/logs.py, cli/).
SERVICE: tuple[Setting, ...] = (
    _s(
        "REDIS_URL",
        None,
        url(*STORE_URL_SCHEMES),
        "redis://, rediss://, unix://, redis+cluster:// or rediss+cluster:// URL",
        "Event store Redis (`redis+cluster://host:port[,host:port...]`: a Redis Cluster "
        "reached through any listed node). Unset: embedded mode (in-process fakeredis).",
    ),
    _s(
        "RQ_REDIS_URL",
        None,
        url("redis", "rediss", "unix"),
        "a standalone redis://, rediss:// or unix:// URL (RQ does not support Redis Cluster)",
        "Redis of RQ (queue, scheduler, worker leases); default `REDIS_URL`; required with "
        "a cluster `REDIS_URL`.",
    ),
    _s(
        "ARENA_REDIS_CLUSTER",
        "0",
        flag,
        "1/true/yes/on or 0/false/no/off",
        "`1`: treat a plain `redis://host:port` `REDIS_URL` as a cluster seed node.",
    ),
    _s(
        "ARENA_REDIS_WAIT_REPLICAS",
        "0",
        integer(0),
        "an integer >= 0",
        "Replicas that must hold each append before it is answered (`WAIT`, pipelined with "
        "the append).",
    ),
    _s(
        "ARENA_REDIS_WAIT_MS",
        "100",
        integer(1),
        "an integer >= 1 (milliseconds)",
        "Bound of that wait; an append not confirmed in time is still answered (and logged).",
    ),
    _s(
        "ARENA_KEY_PREFIX",
        "arena",
        key_prefix,
        "1-64 characters of A-Z a-z 0-9 _ . : -",
        "Prefix of every key the server writes (matches, players, ratings, limits); also "
        "names the RQ queues `<prefix>-turns` and `<prefix>-turns-analysis`. RQ's own "
        "bookkeeping keys stay `rq:*` (workers, registries; shared by every prefix on one "
        "Redis, each queue's jobs apart).",
    ),
    _s(
        "ARENA_QUEUE",
        None,
        key_prefix,
        "1-64 characters of A-Z a-z 0-9 _ . : -",
        "RQ queue of bot turns and turn timeouts (default `<prefix>-turns`).",
    ),
    _s(
        "ARENA_SNAPSHOT_EVERY",
        "50",
        integer(1),
        "an integer >= 1",
        "Snapshot the folded state every N events.",
    ),
    _s(
        "ARENA_RECONCILE_S",
        "2.0",
        positive_number,
        SECONDS,
        "Seconds between reconcile passes (one worker of the deployment runs each).",
    ),
    _s(
        "ARENA_RECONCILE_FULL_S",
        "60",
        positive_number,
        SECONDS,
        "Seconds between two full reconcile passes (the others scan only matches waiting "
        "for a worker).",
    ),
    _s(
        "ARENA_BOT_JOB_TIMEOUT_S",
        "30",
        positive_number,
        SECONDS,
        "RQ kills a bot job running longer; reconcile treats it as lost.",
    ),
    _s(
        "ARENA_WORKER_LEASE_S",
        "3",
        positive_number,
        SECONDS,
        "A worker's liveness lease and the scheduler lock last this long (refreshed 3x as often).",
    ),
    _s(
        "ARENA_WORKER_HEARTBEAT_FILE",
        "/tmp/arena-worker.heartbeat",
        text,
        "a file path",
        "Rewritten by `arena worker` at every lease beat; `arena worker --check` reads it. "
        "Give each worker on one host its own file (two workers writing one file hide a "
        "dead one from `--check`).",
        ("worker",),
    ),
    _s(
        "ARENA_APPEND_ATTEMPTS",
        "5",
        integer(1),
        "an integer >= 1",
        "Attempts of a command sent without `expected_version` on a concurrent append.",
    ),
    _s(
        "ARENA_FOLD_CACHE_SIZE",
        "1024",
        integer(1),
        "an integer >= 1",
        "Matches whose folded state each process keeps in memory between requests.",
    ),
    _s(
        "ARENA_INDEX_SHARDS",
        "16",
        integer(1),
        "an integer >= 1",
        "Shards of the global indexes and counters (keep it fixed for a deployment's life).",
    ),
    _s(
        "ARENA_ABANDON_AFTER_S",
        "86400",
        positive_number,
        SECONDS,
        "A running match in which no human acted for this long ends `abandoned`.",
    ),
    _s(
        "ARENA_MAX_BOT_BUDGET",
        "512",
        integer(0),
        "an integer >= 0 (0: no cap)",
        "Highest `budget` bot option a client may ask for.",
    ),
    _s(
        "ARENA_MAX_BOT_TIME_MS",
        "2000",
        integer(0),
        "an integer >= 0 (0: no cap)",
        "Highest `time_budget_ms` bot option a client may ask for.",
    ),
    _s(
        "ARENA_MAX_BOT_MATCHES_PER_CLIENT",
        "4",
        integer(0),
        "an integer >= 0 (0: no cap)",
        "Running matches with a bot seat one client (address) may have.",
    ),
    _s(
        "ARENA_MAX_ANALYSES_PER_CLIENT",
        "3",
        integer(0),
        "an integer >= 0 (0: no cap)",
        "Match analyses one client (address, as for bot matches) may "
        "have queued or running; one more is refused with 429 `too_many_analyses`.",
    ),
    _s(
        "ARENA_COMPACTION",
        "1",
        flag,
        "1/true/yes/on or 0/false/no/off",
        "Compact every finished match into one compressed key (`0`: keep its stream).",
    ),
    _s(
        "ARENA_IDEMPOTENCY_TTL_S",
        "3600",
        positive_number,
        SECONDS,
        "A match's idempotency records expire this long after it ended.",
    ),
    _s(
        "ARENA_ARCHIVE_URL",
        None,
        postgres_conninfo,
        "a postgresql:// or postgres:// URL, or a libpq key=value string",
        "PostgreSQL archive tier; unset: nothing leaves Redis.",
    ),
    _s(
        "ARENA_ARCHIVE_AFTER_S",
        "604800",
        positive_number,
        SECONDS,
        "A compacted match moves to the archive this long after it ended.",
    ),
    _s(
        "ARENA_ARCHIVE_BATCH",
        "100",
        integer(1),
        "an integer >= 1",
        "Matches moved to the archive per full reconcile pass.",
    ),
    _s(
        "ARENA_FINISHED_INDEX_MAX",
        "10000",
        integer(0),
        "an integer >= 0 (0: no bound)",
        "Without an archive: finished matches kept listed in the lobby (older ones stay "
        "readable by id).",
    ),
    _s(
        "ARENA_ENGINES",
        None,
        module_attribute,
        "package.module[:attribute] (default ENGINES)",
        "A `game_id -> Engine` mapping (or a callable returning one) replacing the game "
        "registry (tests).",
    ),
    _s(
        "ARENA_GAME_PACKAGES",
        None,
        game_packages,
        "comma-separated packages that exist (e.g. examples)",
        "Extra games beside the built-in ones: packages exposing `ENGINE`, or holding such "
        "packages (`examples`: every example game). They must be importable: `examples` is "
        "not installed, so run the API and `arena worker` from the repository folder with "
        "`PYTHONPATH=.` (gunicorn adds its folder itself). Default: none "
        "(docs/adding-a-game.md).",
    ),
    _s(
        "ARENA_LOG_FORMAT",
        "text",
        choice("text", "json"),
        "text or json",
        "Log lines as text or as one JSON object each (with `request_id` in a request).",
    ),
    _s(
        "ARENA_LOG_LEVEL",
        "INFO",
        log_level,
        "DEBUG, INFO, WARNING, ERROR or CRITICAL",
        "The lowest level logged.",
    ),
)


def by_name(settings: Iterable[Setting]) -> dict[str, Setting]:
    """``{name: setting}``."""
    return {setting.name: setting for setting in settings}


def read(settings: Iterable[Setting], env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``{name: parsed value}`` of every setting in ``env`` (default ``os.environ``).

    Raises:
        ConfigError: the first refused value (in table order).
    """
    env = os.environ if env is None else env
    return {setting.name: setting.value(env) for setting in settings}


def or_exit(check: Callable[[], Any]) -> Any:
    """``check()``'s result; on :class:`ConfigError` exit the process with status 1
    after printing ``arena: <the error's one line>`` to stderr (``SystemExit``)."""
    try:
        return check()
    except ConfigError as error:
        raise SystemExit(f"arena: {error}") from None
