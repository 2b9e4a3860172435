"""The ringbook command, run as a user would."""
