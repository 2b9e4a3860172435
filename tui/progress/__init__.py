"""Progress: the learner's store (SQLite) and what is computed from it: streaks, mastery, the class report.

Data, not face: nothing here imports Textual, so the CLI, the class report and tests use it headless.
"""
