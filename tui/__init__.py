"""The ringbook terminal app: screens, widgets, the CLI and the progress store."""
