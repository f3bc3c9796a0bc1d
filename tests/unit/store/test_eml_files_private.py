"""Without SMTP each mail is an .eml file holding a live link: 0600 in a 0700 folder whatever the umask, also in
a folder an older version left 0755."""
from __future__ import annotations

import os
import stat

from service.app.mail.compose import Letter, compose
from service.app.mail.transport import FileTransport


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_mail_files_are_readable_by_the_service_only(tmp_path):
    message = compose(Letter("sign_in", "ann", "http://x/sign-in/t"), "ann@example.com", "en",
                      "turnstream@localhost", "sign_in:abc", "http://x/unsubscribe/u")
    old = tmp_path / "old"
    old.mkdir(mode=0o755)
    os.chmod(old, 0o755)
    umask = os.umask(0o022)
    try:
        for folder in (tmp_path / "new" / "mail", old):
            FileTransport(folder).send(message)
            (path,) = folder.glob("*.eml")
            assert (mode(folder), mode(path)) == (0o700, 0o600), folder
    finally:
        os.umask(umask)
