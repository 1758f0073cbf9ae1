"""How many questions a drill asks: the default and the cap.

Kept apart from ``interviewer.drills`` (the scheduler, which loads fsrs and the
content schema) so that ``interviewer drill --help`` can state them while
parsing costs only argparse.
"""

from __future__ import annotations

DEFAULT_COUNT = 5
"""Questions in a drill unless ``--count`` says otherwise."""
MAX_COUNT = 50
