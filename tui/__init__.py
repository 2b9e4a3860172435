"""The ringbook terminal app: the face (app, screens, answers, widgets), progress, and the CLI."""
