"""The refusal every tournament rule raises: the rule or the field it names, and a code."""

from __future__ import annotations


class TournamentIllegal(Exception):
    """A command the rules (or the structure) refuse; nothing changes.

    ``rule`` is the 2026 TDA number ("9-A"), ``field`` the command's offending field
    (``$.player``), ``code`` what a station switches on (``unknown_player``).
    """

    def __init__(self, rule: str, message: str, *, code: str = "illegal", field: str = "") -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.code = code
        self.field = field
