"""The effect vocabulary: every ``op`` a card effect may use and the parameters it takes.

A card's ``effects`` is a list of ``{"trigger": T, "ops": [op, ...]}``; an op is
``{"op": name, **params}``. Triggers follow the rulebook's effect symbols ("Recruitment
Effects", "Phase 2: Battle"): ``passive``, ``recruit``, ``discard``, ``round_bonus``,
``preparation``, ``battle``, plus ``start`` (faction "at the start of the game") and
``triple`` (a card used in a Triple, Goldfish). :data:`OPS` maps op name -> parameter spec
``{param: kind}``; a kind ending in ``?`` is optional. Kinds: ``int``, ``bool``, ``color``,
``ops`` (nested op list), ``ints`` (list of integers) or a tuple of allowed strings.

Op families:

- board: ``strength`` (permanent, scale steps), ``temp`` (temporary battle strength),
  ``red_slot``, ``attach``, ``swap``, ``absorb``, ``merge``, ``bequeath``, ``valley``,
  ``open_slot``, ``convert_temp``, ``ammo_all``, ``exchange`` (Megagneto's command),
  ``tuck`` (Kollektah: hand cards under pool Special Units), ``fix_temp`` (C.H.R.O.M.E.:
  temporary strength made permanent);
- cards: ``ammo``, ``draw``, ``discard``, ``draw_discard``, ``search``, ``salvage``,
  ``take_from_hands`` (Outfitter Q),
  ``pray``, ``stash`` (static), ``retrigger``;
- special units / health: ``heal``, ``renew_pool``, ``special_to_slot``,
  ``steal_pool``, ``scam``, ``free_special``, ``health_from_deck``, ``extra_faction``,
  ``damage``, ``cash_pool`` (Big Benji's action), ``guess_score`` (XxX);
- battle: ``exhaust``, ``reactivate``, ``kill``, ``win_point``, ``sacrifice_win``, ``magnet``,
  ``mirror``, ``slide_ailien`` (Astronomer keeps the A.I.Lien it fought with), ``rally``,
  ``never_fights``, ``tiebreak``, ``double_damage``, ``ammo_refund``,
  ``illusion`` (Illusionists' decoy reaction), ``deny_added_strength`` (Tokamak: opponents
  add no strength of additional units to a fight, ruling R-TOKAMAK);
- static modifiers read by the rules: ``ammo_bonus``, ``ammo_temp``, ``ammo_triple``,
  ``pair_triple``, ``wild_triple``, ``special_choice``, ``battle_cards``, ``max_ammo``,
  ``ammo_per_damage``, ``double_strength``, ``red_double``, ``idle_first_round``,
  ``ammo_humans`` (Lieutenant Dan: ammo may go to all units of a colour instead of one);
- game end: ``alt_win``, ``apocalypse``;
- Megaton: ``load`` (static: hand cards go face down onto it when Recruitment ends) and
  ``boom`` (preparation: the loaded cards blast each opponent's strongest unit in reach);
- ``listen``: a passive hook (``on`` one of :data:`HOOKS`) running nested ``then`` ops.
"""

from __future__ import annotations

TRIGGERS = (
    "passive",
    "recruit",
    "discard",
    "round_bonus",
    "preparation",
    "battle",
    "start",
    "triple",
)
HOOKS = (
    "discard_effect",
    "ammo_spent",
    "ammo_gained",
    "unit_discarded",
    "point_won",
    "battle_won",
    "reactivated",
    "fight_with_temp",
    "pool_renewed",
    "score_guessed",
    "own_exhausted",
)
PICKS = ("strongest", "weakest", "owner", "victim")  # owner / victim: that seat chooses

OPS: dict[str, dict[str, object]] = {
    "strength": {"n": "int", "to": ("self", "target", "all", "leftmost"), "color": "color?"},
    "temp": {
        "n": "int",
        "to": ("self", "all", "opponents", "weakest"),
        "color": "color?",
        "fighting": "bool?",
        "per": ("attached", "lost_health", "ailien_value", "discard_units", "?"),
    },
    "ammo": {"n": "int"},
    "draw": {"n": "int", "if_pool": "bool?"},
    "discard": {
        "n": "int",
        "silent": "bool?",
        "per": "ops?",
        "then": "ops?",
        "optional": "bool?",
        "repeat": "bool?",
    },
    "draw_discard": {"draw": "int", "discard": "int", "keep": "bool?"},
    "red_slot": {"into": ("own_slot", "?")},
    "attach": {"n": "int", "to": ("self",)},
    "exhaust": {"pick": PICKS, "declare": "bool?"},
    "reactivate": {"color": "color?"},
    "kill": {"pick": PICKS},
    "swap": {"mode": ("strength", "position"), "choose": "bool?", "optional": "bool?"},
    "win_point": {"max_value": "int"},
    "alt_win": {"kind": ("one_color",), "count": "int"},
    "battle_cards": {"n": "int"},
    "max_ammo": {"n": "int"},
    "ammo_per_damage": {"n": "int"},
    "ammo_bonus": {"n": "int", "to": ("self", "any")},
    "ammo_temp": {"n": "int"},
    "ammo_refund": {"color": "color"},
    "heal": {"n": "int"},
    "tiebreak": {},
    "pair_triple": {},
    "ammo_triple": {"n": "int"},
    "wild_triple": {},
    "special_choice": {},
    "double_strength": {},
    "double_damage": {},
    "red_double": {},
    "never_fights": {},
    "idle_first_round": {},
    "listen": {
        "on": HOOKS,
        "then": "ops",
        "color": "color?",
        "self_only": "bool?",
        "unique": "bool?",
        "phase": ("recruitment", "battle", "?"),
        "per_count": "bool?",
    },
    "steal_pool": {},
    "open_slot": {"extra": "bool", "once": "bool?"},
    "renew_pool": {},
    "special_to_slot": {},
    "retrigger": {"trigger": ("recruit", "discard"), "color": "color?"},
    "rally": {"color": "color"},
    "magnet": {"color": "color", "n": "int", "to": ("leftmost", "?")},
    "absorb": {},
    "convert_temp": {"to": ("self", "?")},
    "apocalypse": {},
    "cash_pool": {},
    "illusion": {},
    "exchange": {},
    "tuck": {},
    "guess_score": {},
    "damage": {"n": "int"},
    "bequeath": {"color": "color"},
    "merge": {"color": "color"},
    "mirror": {"color": "color"},
    "sacrifice_win": {"color": "color"},
    "salvage": {},
    "search": {
        "kind": ("ailien", "blue", "red", "yellow"),
        "to": ("colony", "?"),
        "reshuffle": ("optional", "?"),
    },
    "scam": {},
    "extra_faction": {},
    "stash": {"n": "int"},
    "valley": {"n": "int"},
    "free_special": {"rounds": "ints"},
    "health_from_deck": {},
    "pray": {"n": "int"},
    "ammo_all": {"color": "color"},
    "ammo_humans": {"color": "color"},
    "fix_temp": {"n": "int"},
    "take_from_hands": {},
    "deny_added_strength": {},
    "slide_ailien": {},
    "load": {},
    "boom": {},
}

# Ops that only change how the rules count (read by effects.modifiers); never "executed".
STATIC_OPS = frozenset(
    {
        "ammo_bonus",
        "ammo_temp",
        "ammo_triple",
        "pair_triple",
        "wild_triple",
        "special_choice",
        "battle_cards",
        "max_ammo",
        "ammo_per_damage",
        "double_strength",
        "red_double",
        "idle_first_round",
        "tiebreak",
        "double_damage",
        "ammo_refund",
        "never_fights",
        "alt_win",
        "stash",
        "listen",
        "cash_pool",
        "guess_score",
        "illusion",
        "exchange",
        "tuck",
        "load",
        "deny_added_strength",
        "ammo_humans",
    }
)
# Ops evaluated while a unit fights (read by battle strength / point resolution).
BATTLE_OPS = frozenset(
    {
        "temp",
        "magnet",
        "mirror",
        "rally",
        "reactivate",
        "win_point",
        "sacrifice_win",
        "listen",
        "slide_ailien",
    }
)
