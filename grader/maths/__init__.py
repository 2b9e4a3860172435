"""Reading and proving answers: learner text to a safe tree, then to a number, a unit or a proof."""
