"""libpq connection strings, checked by psycopg (the archive's driver) without connecting."""

from __future__ import annotations


def check_conninfo(raw: str) -> None:
    """Raise ValueError (libpq's first message line) unless ``raw`` parses as a libpq
    ``key=value`` connection string (psycopg's ``conninfo_to_dict``; no connection made)."""
    from psycopg.conninfo import conninfo_to_dict  # psycopg loads only when an archive is set

    try:
        conninfo_to_dict(raw)
    except Exception as error:  # psycopg.ProgrammingError: libpq refused it
        raise ValueError(str(error).splitlines()[0] if str(error) else "") from None
