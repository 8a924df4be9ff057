"""Use cases behind the MatchService facade."""
