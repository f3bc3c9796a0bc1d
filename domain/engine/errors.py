"""Errors the domain raises: a rule violation that cites the rule it broke."""


class RuleViolation(Exception):
    """A command broke a rule; `rule_id` is the bare id from the game's spec (or `platform:...`)."""

    def __init__(self, rule_id: str, message: str):
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message
