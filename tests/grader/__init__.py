"""The engine: parsing, grading each kind, the sandbox, safe text."""
