"""device package."""
