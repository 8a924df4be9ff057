"""Test-only support code for platform tests (tiny but complete test games)."""
