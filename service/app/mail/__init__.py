"""Mail: addresses a player proves, notification preferences, composing (plain text + HTML), signed links and
the transports (SMTP, or .eml files in a folder). Sending is an RQ job (workers/mail.py)."""
