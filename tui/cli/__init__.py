"""The `ringbook` command: the parser and dispatch in main.py, the shared openers in common.py, and one
module per command group (content, check, progress, classroom, serve). Each loads only what it runs."""
