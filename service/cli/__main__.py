"""`python -m service.cli`: the `turnstream` command."""
import sys

from service.cli import main

sys.exit(main())
