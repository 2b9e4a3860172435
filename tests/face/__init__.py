"""The face, driven with Pilot and in real terminals: screens, answer panels, snapshots."""
