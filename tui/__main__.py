"""`python -m tui` runs ringbook."""

import sys

from tui.cli import main

sys.exit(main())
