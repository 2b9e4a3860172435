"""The `ringbook` command: main.py assembles the parser from parsers/ (one module per command group, each
adding its sub-parser) and runs the command; common.py has the shared openers; one module per command group
(app, content, check, progress, classroom, serve) does the work, loaded only when its command runs."""
