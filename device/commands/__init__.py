"""Command groups of the `companion` CLI, one module each."""
