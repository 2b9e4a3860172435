"""The store and what is computed from it: durability, hostile rows, streaks, the class report."""
