"""Running learner code: the one place it runs, inside an OS sandbox."""
