"""The pure event log: codec, envelopes, roster, verify, match record."""
