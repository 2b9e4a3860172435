"""The `ringbook` command line, one module per command group (app, content, check, progress, classroom,
serve), each adding its own sub-parser and naming the function that runs it; tui/cli/main.py assembles
them. These modules import only argparse: a command's own module loads when that command runs."""
