"""A class's inbox as learners' apps fill it, for the tests of `ringbook class live`: each learner has a store
of their own, and their export is written again whole (the real export writer) after their attempts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tui.progress.export_file import inert_json, write_whole
from tui.progress.store import ProgressStore

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


class Class:
    """Learners with stores of their own, each writing their export into one inbox as their app would."""

    def __init__(self, root: Path):
        self.root = root
        self.inbox = root / "inbox"
        self.inbox.mkdir()

    def answer(self, name: str, rows: list[tuple[str, str, str, float]], now: datetime = NOW) -> Path:
        """Record (exercise, answer, status, minutes before `now`) for `name`, and write their export again."""
        store = ProgressStore.open(self.root / "stores" / name)
        for exercise_id, answer, status, minutes_ago in rows:
            store.record_attempt(exercise_id, answer, status, now=now - timedelta(minutes=minutes_ago))
        data = {**store.export_data(), "student": {"name": name, "user": name, "host": "class"}}
        store.close()
        target = self.inbox / f"{name}-0123456789abcdef0123.json"
        write_whole(target, inert_json(data))
        return target
