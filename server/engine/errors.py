"""The engine's error: a command the rules cannot accept. The state stays exactly as it was."""

from __future__ import annotations


class Illegal(Exception):
    """A command the rules refuse; ``rule`` names the TDA rule (2026 number) that says why."""

    def __init__(self, rule: str, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.code = code
