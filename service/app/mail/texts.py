"""The words of every mail, in each language mails are written in (English and Russian)."""
from __future__ import annotations

TEXTS = {
    "en": {
        "hello": "Hello {name},",
        "verify.subject": "Confirm your e-mail address for turnstream",
        "verify.lines": ["Someone (we hope you) gave this address to the turnstream player {name}.",
                         "Open the link below to confirm it. Until then we send nothing else here."],
        "verify.action": "Confirm this address",
        "sign_in.subject": "Your turnstream sign-in link",
        "sign_in.lines": ["Open the link below to sign in as {name}. It works once, within 15 minutes.",
                          "If you did not ask for it, ignore this mail: nobody can use it without your mailbox."],
        "sign_in.action": "Sign in",
        "your_move.subject": "Your move in {game}",
        "your_move.lines": ["It is your move in {game} against {opponents}."],
        "your_move.action": "Open the match",
        "digest.subject": "{count} matches wait for your move",
        "digest.lines": ["These matches wait for your move:"],
        "digest.action": "Open your matches",
        "reminder.subject": "Your turn in {game} ends in {hours} h",
        "reminder.lines": ["Your turn in {game} ends at {deadline} (UTC).",
                           "Move before then, or the deadline plays for you."],
        "reminder.action": "Open the match",
        "invitation.subject": "{inviter} invites you to play {game}",
        "invitation.lines": ["{inviter} invites you to a match of {game} with {players}."],
        "invitation.action": "Answer the invitation",
        "dispute.subject": "A move is disputed in {game}",
        "dispute.lines": ["{by} disputes a move in {game}: \u201c{reason}\u201d.", "Your vote decides it."],
        "dispute.action": "Vote",
        "rules_vote.subject": "{by} proposes new rules for {game}",
        "rules_vote.lines": ["{by} proposes moving your {game} match to rules {version}.",
                             "Accept or decline before {deadline} (UTC): without every player's acceptance "
                             "the match keeps its rules."],
        "rules_vote.action": "Vote",
        "since": "waiting since {since}",
        "unsubscribe": "Stop these mails",
        "unsubscribe.all": "Stop all mails from turnstream",
        "footer": "You get this mail because this address was given to turnstream.",
    },
    "ru": {
        "hello": "\u0417\u0434\u0440\u0430\u0432\u0441\u0442\u0432\u0443\u0439\u0442\u0435, {name}!",
        "verify.subject": "\u041f\u043e\u0434\u0442\u0432\u0435\u0440\u0434\u0438\u0442\u0435 \u0430\u0434\u0440\u0435\u0441 \u043f\u043e\u0447\u0442\u044b \u0434\u043b\u044f turnstream",
        "verify.lines": ["\u042d\u0442\u043e\u0442 \u0430\u0434\u0440\u0435\u0441 \u0443\u043a\u0430\u0437\u0430\u043b \u0438\u0433\u0440\u043e\u043a turnstream {name}.",
                         "\u041e\u0442\u043a\u0440\u043e\u0439\u0442\u0435 \u0441\u0441\u044b\u043b\u043a\u0443 \u043d\u0438\u0436\u0435, \u0447\u0442\u043e\u0431\u044b \u0435\u0433\u043e \u043f\u043e\u0434\u0442\u0432\u0435\u0440\u0434\u0438\u0442\u044c. \u0414\u043e \u0442\u0435\u0445 \u043f\u043e\u0440 \u043c\u044b \u043d\u0438\u0447\u0435\u0433\u043e \u0441\u044e\u0434\u0430 \u043d\u0435 \u043f\u0438\u0448\u0435\u043c."],
        "verify.action": "\u041f\u043e\u0434\u0442\u0432\u0435\u0440\u0434\u0438\u0442\u044c \u0430\u0434\u0440\u0435\u0441",
        "sign_in.subject": "\u0421\u0441\u044b\u043b\u043a\u0430 \u0434\u043b\u044f \u0432\u0445\u043e\u0434\u0430 \u0432 turnstream",
        "sign_in.lines": ["\u041e\u0442\u043a\u0440\u043e\u0439\u0442\u0435 \u0441\u0441\u044b\u043b\u043a\u0443, \u0447\u0442\u043e\u0431\u044b \u0432\u043e\u0439\u0442\u0438 \u043a\u0430\u043a {name}. \u041e\u043d\u0430 \u0441\u0440\u0430\u0431\u043e\u0442\u0430\u0435\u0442 \u043e\u0434\u0438\u043d \u0440\u0430\u0437, \u0432 \u0442\u0435\u0447\u0435\u043d\u0438\u0435 15 \u043c\u0438\u043d\u0443\u0442.",
                          "\u0415\u0441\u043b\u0438 \u0432\u044b \u0435\u0451 \u043d\u0435 \u043f\u0440\u043e\u0441\u0438\u043b\u0438, \u043f\u0440\u043e\u0441\u0442\u043e \u043f\u0440\u043e\u0438\u0433\u043d\u043e\u0440\u0438\u0440\u0443\u0439\u0442\u0435 \u043f\u0438\u0441\u044c\u043c\u043e."],
        "sign_in.action": "\u0412\u043e\u0439\u0442\u0438",
        "your_move.subject": "\u0412\u0430\u0448 \u0445\u043e\u0434 \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb",
        "your_move.lines": ["\u0412\u0430\u0448 \u0445\u043e\u0434 \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb; \u0441\u043e\u043f\u0435\u0440\u043d\u0438\u043a\u0438: {opponents}."],
        "your_move.action": "\u041e\u0442\u043a\u0440\u044b\u0442\u044c \u043f\u0430\u0440\u0442\u0438\u044e",
        "digest.subject": "\u0412\u0430\u0448\u0435\u0433\u043e \u0445\u043e\u0434\u0430 \u0436\u0434\u0443\u0442 \u043f\u0430\u0440\u0442\u0438\u0438: {count}",
        "digest.lines": ["\u042d\u0442\u0438 \u043f\u0430\u0440\u0442\u0438\u0438 \u0436\u0434\u0443\u0442 \u0432\u0430\u0448\u0435\u0433\u043e \u0445\u043e\u0434\u0430:"],
        "digest.action": "\u041e\u0442\u043a\u0440\u044b\u0442\u044c \u043c\u043e\u0438 \u043f\u0430\u0440\u0442\u0438\u0438",
        "reminder.subject": "\u0425\u043e\u0434 \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb \u0437\u0430\u043a\u043e\u043d\u0447\u0438\u0442\u0441\u044f \u0447\u0435\u0440\u0435\u0437 {hours} \u0447",
        "reminder.lines": ["\u0412\u0430\u0448 \u0445\u043e\u0434 \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb \u0437\u0430\u043a\u0430\u043d\u0447\u0438\u0432\u0430\u0435\u0442\u0441\u044f \u0432 {deadline} (UTC).",
                           "\u0421\u0434\u0435\u043b\u0430\u0439\u0442\u0435 \u0435\u0433\u043e \u0434\u043e \u044d\u0442\u043e\u0433\u043e \u0432\u0440\u0435\u043c\u0435\u043d\u0438."],
        "reminder.action": "\u041e\u0442\u043a\u0440\u044b\u0442\u044c \u043f\u0430\u0440\u0442\u0438\u044e",
        "invitation.subject": "{inviter} \u043f\u0440\u0438\u0433\u043b\u0430\u0448\u0430\u0435\u0442 \u0432\u0430\u0441 \u0432 \u043f\u0430\u0440\u0442\u0438\u044e \u00ab{game}\u00bb",
        "invitation.lines": ["{inviter} \u043f\u0440\u0438\u0433\u043b\u0430\u0448\u0430\u0435\u0442 \u0432\u0430\u0441 \u0432 \u043f\u0430\u0440\u0442\u0438\u044e \u00ab{game}\u00bb; \u0438\u0433\u0440\u043e\u043a\u0438: {players}."],
        "invitation.action": "\u041e\u0442\u0432\u0435\u0442\u0438\u0442\u044c \u043d\u0430 \u043f\u0440\u0438\u0433\u043b\u0430\u0448\u0435\u043d\u0438\u0435",
        "dispute.subject": "\u0425\u043e\u0434 \u043e\u0441\u043f\u043e\u0440\u0435\u043d \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb",
        "dispute.lines": ["{by} \u043e\u0441\u043f\u0430\u0440\u0438\u0432\u0430\u0435\u0442 \u0445\u043e\u0434 \u0432 \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb: \u00ab{reason}\u00bb.", "\u0420\u0435\u0448\u0430\u0435\u0442 \u0432\u0430\u0448 \u0433\u043e\u043b\u043e\u0441."],
        "dispute.action": "\u0413\u043e\u043b\u043e\u0441\u043e\u0432\u0430\u0442\u044c",
        "rules_vote.subject": "{by} \u043f\u0440\u0435\u0434\u043b\u0430\u0433\u0430\u0435\u0442 \u043d\u043e\u0432\u044b\u0435 \u043f\u0440\u0430\u0432\u0438\u043b\u0430 \u0434\u043b\u044f \u043f\u0430\u0440\u0442\u0438\u0438 \u00ab{game}\u00bb",
        "rules_vote.lines": ["{by} \u043f\u0440\u0435\u0434\u043b\u0430\u0433\u0430\u0435\u0442 \u043f\u0435\u0440\u0435\u0432\u0435\u0441\u0442\u0438 \u0432\u0430\u0448\u0443 \u043f\u0430\u0440\u0442\u0438\u044e \u00ab{game}\u00bb \u043d\u0430 \u043f\u0440\u0430\u0432\u0438\u043b\u0430 {version}.",
                             "\u041f\u0440\u0438\u043c\u0438\u0442\u0435 \u0438\u043b\u0438 \u043e\u0442\u043a\u043b\u043e\u043d\u0438\u0442\u0435 \u043f\u0440\u0435\u0434\u043b\u043e\u0436\u0435\u043d\u0438\u0435 \u0434\u043e {deadline} (UTC): \u0431\u0435\u0437 \u0441\u043e\u0433\u043b\u0430\u0441\u0438\u044f \u0432\u0441\u0435\u0445 \u0438\u0433\u0440\u043e\u043a\u043e\u0432 \u043f\u0430\u0440\u0442\u0438\u044f \u043e\u0441\u0442\u0430\u0451\u0442\u0441\u044f \u043d\u0430 \u043f\u0440\u0435\u0436\u043d\u0438\u0445 \u043f\u0440\u0430\u0432\u0438\u043b\u0430\u0445."],
        "rules_vote.action": "\u0413\u043e\u043b\u043e\u0441\u043e\u0432\u0430\u0442\u044c",
        "since": "\u0436\u0434\u0451\u0442 \u0441 {since}",
        "unsubscribe": "\u041e\u0442\u043f\u0438\u0441\u0430\u0442\u044c\u0441\u044f \u043e\u0442 \u0442\u0430\u043a\u0438\u0445 \u043f\u0438\u0441\u0435\u043c",
        "unsubscribe.all": "\u041e\u0442\u043f\u0438\u0441\u0430\u0442\u044c\u0441\u044f \u043e\u0442 \u0432\u0441\u0435\u0445 \u043f\u0438\u0441\u0435\u043c turnstream",
        "footer": "\u0412\u044b \u043f\u043e\u043b\u0443\u0447\u0438\u043b\u0438 \u044d\u0442\u043e \u043f\u0438\u0441\u044c\u043c\u043e, \u043f\u043e\u0442\u043e\u043c\u0443 \u0447\u0442\u043e \u044d\u0442\u043e\u0442 \u0430\u0434\u0440\u0435\u0441 \u0443\u043a\u0430\u0437\u0430\u043d \u0432 turnstream.",
    },
}


def text(lang: str, key: str, **values):
    """One text (a string or a list of lines) in `lang` (English when missing), with `values` filled in."""
    found = TEXTS.get(lang, TEXTS["en"]).get(key, TEXTS["en"][key])
    if isinstance(found, list):
        return [line.format(**values) for line in found]
    return found.format(**values)
