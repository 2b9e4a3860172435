"""The ringbook engine: the content model, loading and validating books, judging answers. Imports no Textual."""
