"""Ratings as a projection of the event log (issue 22): pure functions, no storage.

- :mod:`service.ratings.families`: which leaderboard (game and mode family) a match counts
  for, and who the game itself is as an opponent in solo and co-op modes;
- :mod:`service.ratings.inputs`: what a finished match's log says for the ratings (the
  teams, their places, the end), or why it is not rated;
- :mod:`service.ratings.fold`: the OpenSkill (Plackett-Luce) fold over those inputs in end
  order, the same for the live table, ``arena ratings rebuild`` and ``arena ratings replay``.
"""
