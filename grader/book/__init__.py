"""The book: what it is (the content model), reading and checking it, its cache and its variants."""
