"""What `turnstream upgrade-check` prints, read by the tests: the count line that ends its output."""
from __future__ import annotations

import re

COUNT_LINE = re.compile(r"^checked (\d+) matches in [0-9.]+ s \([0-9-]+ matches/s\): (\d+) identical, (\d+) changed, "
                        r"(\d+) broken(?:; \d+ rules versions? changed in place)?$")


def counts(text: str) -> tuple:
    """(checked, identical, changed, broken) from the count line, which ends the output."""
    found = COUNT_LINE.match(text.strip().splitlines()[-1])
    assert found, text
    return tuple(int(x) for x in found.groups())
