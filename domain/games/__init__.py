"""Game registry: ``game_id -> Engine``, discovered, never listed by hand.

A game is one folder: a package that exposes its engine as ``ENGINE`` (an instance of
:class:`domain.engine.Engine`). The registry holds

- every sub-package of ``domain.games`` (the built-in games, found with :mod:`pkgutil`);
- every package named by ``ARENA_GAME_PACKAGES`` (comma-separated dotted module names, for
  example ``examples``): a package exposing ``ENGINE`` is one game, any other package
  contributes each of its sub-packages that exposes one (so ``examples`` registers every
  game under ``examples/``). Unset or empty: the built-in games only.

Each engine is checked when the registry loads (:func:`check_engine`); a package that does
not hold a valid game raises :class:`GameRegistryError` naming it (a deployment fault,
found at start: :class:`service.config.Config` checks the names exist, the first use of the
registry checks the engines). Loading is lazy (importing the games costs ~0.6 s of CPU)
and cached per list of packages.

A game may also have a ``testing`` module beside its ``__init__`` (its test settings, see
:mod:`domain.testing`); :func:`package_of` names the package it lives in.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from collections.abc import Iterable
from functools import lru_cache
from types import ModuleType

from domain.engine import Engine, EngineBase

#: environment variable listing extra game packages (see module docstring)
PACKAGES_ENV = "ARENA_GAME_PACKAGES"
#: a game id: URL-safe, lower-case words joined by ``-`` (it appears in paths and names)
GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: a dotted module name (what ``ARENA_GAME_PACKAGES`` lists)
MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


class GameRegistryError(ValueError):
    """A package that should hold a game does not (missing, no valid ``ENGINE``, a game id
    taken twice): a fault of the installation, raised when the registry loads."""


def extra_packages(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """The packages ``ARENA_GAME_PACKAGES`` names (``environ`` default ``os.environ``), in
    order, blanks dropped. Raises :class:`GameRegistryError` for a name that is not a
    dotted module name."""
    raw = (os.environ if environ is None else environ).get(PACKAGES_ENV) or ""
    names = tuple(part.strip() for part in raw.split(",") if part.strip())
    for name in names:
        if not MODULE_NAME.fullmatch(name):
            raise GameRegistryError(f"{PACKAGES_ENV}: {name!r} is not a dotted module name")
    return names


def check_engine(engine: object, where: str) -> Engine:
    """``engine`` when it is a valid game engine, else :class:`GameRegistryError` naming
    ``where`` (its package). Checks: derives from :class:`EngineBase` and implements the
    :class:`Engine` protocol; ``game_id`` matches :data:`GAME_ID`; a non-empty ``title``;
    ``1 <= min_seats <= max_seats``; a ``random`` bot; ``timeout_bot`` among ``bots``;
    ``options_schema`` an object schema; every command schema keyed by its type."""

    def fail(why: str) -> GameRegistryError:
        return GameRegistryError(f"{where}: {why}")

    if not isinstance(engine, EngineBase) or not isinstance(engine, Engine):
        raise fail("ENGINE must be an EngineBase instance implementing domain.engine.Engine")
    game_id = getattr(engine, "game_id", None)
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise fail(f"game_id {game_id!r} is not lower-case words joined by '-'")
    if not isinstance(engine.title, str) or not engine.title.strip():
        raise fail("title must be a non-empty string")
    seats = (engine.min_seats, engine.max_seats)
    if (
        not all(isinstance(n, int) and not isinstance(n, bool) for n in seats)
        or not 1 <= seats[0] <= seats[1]
    ):
        raise fail(f"seats must satisfy 1 <= min_seats <= max_seats, got {seats}")
    if "random" not in engine.bots:
        raise fail("bots must include a 'random' level")
    if engine.timeout_bot not in engine.bots:
        raise fail(f"timeout_bot {engine.timeout_bot!r} is not one of its bots")
    if not isinstance(engine.options_schema, dict) or engine.options_schema.get("type") != "object":
        raise fail("options_schema must be a JSON Schema of type object")
    for kind, schema in engine.command_schemas.items():
        if (schema.get("properties") or {}).get("type", {}).get("const") != kind:
            raise fail(f"command schema {kind!r} must pin type to const {kind!r}")
    return engine


def _game_modules(package: str) -> list[ModuleType]:
    """The game modules ``package`` stands for (see module docstring)."""
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as error:
        if error.name and package.startswith(error.name):
            raise GameRegistryError(f"{PACKAGES_ENV}: no package {package!r}") from None
        raise
    if hasattr(module, "ENGINE"):
        return [module]
    found = [
        importlib.import_module(f"{package}.{info.name}")
        for info in sorted(
            pkgutil.iter_modules(getattr(module, "__path__", [])), key=lambda info: info.name
        )
        if info.ispkg
    ]
    games = [game for game in found if hasattr(game, "ENGINE")]
    if not games and package != __name__:
        raise GameRegistryError(f"{package}: neither exposes ENGINE nor holds a package that does")
    return games


@lru_cache(maxsize=8)
def _load(packages: tuple[str, ...]) -> tuple[dict[str, Engine], dict[str, str]]:
    engines: dict[str, Engine] = {}
    homes: dict[str, str] = {}
    for package in (__name__, *packages):
        for module in _game_modules(package):
            engine = check_engine(module.ENGINE, module.__name__)
            if engine.game_id in engines:
                raise GameRegistryError(
                    f"{module.__name__}: game id {engine.game_id!r} is "
                    f"taken by {homes[engine.game_id]}"
                )
            engines[engine.game_id] = engine
            homes[engine.game_id] = module.__name__
    return dict(sorted(engines.items())), homes


def registry(packages: Iterable[str] | None = None) -> dict[str, Engine]:
    """Every installed game keyed by ``game_id`` (sorted): the built-in games plus those of
    ``packages`` (``None``: :func:`extra_packages`, i.e. ``ARENA_GAME_PACKAGES``). The
    mapping is shared: do not mutate it. Raises :class:`GameRegistryError`."""
    chosen = extra_packages() if packages is None else tuple(packages)
    return _load(chosen)[0]


def package_of(game_id: str, packages: Iterable[str] | None = None) -> str:
    """The dotted name of the package holding ``game_id`` (``domain.games.aipokalypse``).
    Raises KeyError for a game that is not installed."""
    chosen = extra_packages() if packages is None else tuple(packages)
    return _load(chosen)[1][game_id]


def get_engine(game_id: str) -> Engine | None:
    """The engine for ``game_id`` or ``None`` when no such game is installed."""
    return registry().get(game_id)
