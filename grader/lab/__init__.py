"""The Parallelism Paradox lab: its performance model and a learner's saved design."""
