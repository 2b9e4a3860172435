"""One screen per module, each styled by the .tcss file beside it."""
