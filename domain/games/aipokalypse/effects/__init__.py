"""The data-driven effect engine of A.I.Pokalypse: vocabulary, static modifiers, resolution.

:mod:`.resolve` runs the ops registered with it; importing the package registers the ops of
:mod:`.choices`, :mod:`.opponents` and :mod:`.pools` (the ops that ask a player or read the
other boards) — modules above :mod:`.resolve`, so no module of the engine imports a module
that imports it back."""

from . import choices, opponents, pools  # noqa: F401  (register their ops with .resolve)
