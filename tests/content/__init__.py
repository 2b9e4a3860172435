"""The book itself: every answer recomputed, explanations graded, content check."""
