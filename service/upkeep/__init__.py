"""Upkeep passes: reconcile, compaction, archive, housekeeping."""
