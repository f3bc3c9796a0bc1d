"""The notifications tests' fixtures: a real SMTP server on loopback for each test (`mailbox`) and the test settings
mailing through it (`settings`); a module that needs other settings overrides `settings`."""
from __future__ import annotations

from tests.mailbox import mailbox, mailing_settings  # noqa: F401 (the fixtures, for every module of this folder)
