"""Store adapters: Redis (event store, indexes, caches) and PostgreSQL (archive)."""
