"""``python -m interviewer``."""

import sys

from interviewer.cli import main

sys.exit(main())
