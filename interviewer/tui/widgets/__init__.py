"""Widgets: one per file."""
