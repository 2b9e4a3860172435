"""The Parallelism Paradox lab: its performance model, its loader and a learner's saved design."""
