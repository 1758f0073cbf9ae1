"""The Textual front end.  The only package that imports Textual; it renders and dispatches, the core decides."""
