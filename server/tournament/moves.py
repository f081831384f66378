"""What a tournament rule module is handed to say what happened: ``Emit``."""

from __future__ import annotations

from collections.abc import Callable

from protocol.tournament import TournamentEvent

Emit = Callable[[TournamentEvent], None]
"""Applies an event to the state the moment it is decided, and records it."""
