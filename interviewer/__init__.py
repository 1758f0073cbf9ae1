"""interviewer: timed, graded mock interviews for AI-infrastructure roles."""

__version__ = "0.1.0"
