"""What can go wrong with the progress store, as exceptions that carry a message for the learner."""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """A problem with the progress store, in words for the learner."""


class StoreTooNew(StoreError):
    """The store was written by a newer ringbook; it is left untouched."""


class StoreReadOnly(StoreError):
    """A write that cannot happen: the folder is read-only or the disk is full."""


class DamagedStore(sqlite3.DatabaseError):
    """A database that lacks a table or column the store uses: moved aside like an unreadable file."""


class StoreUnreadable(StoreError):
    """A command that reads progress found a store it cannot read (not a file, damaged, not permitted): it
    fails saying so rather than answering from an empty store; nothing was changed."""
