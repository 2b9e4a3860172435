"""Reusable widgets, one per module, each with its DEFAULT_CSS inside."""
