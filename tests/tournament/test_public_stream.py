"""12-C: the order in which tables break is never announced: a display's copy of the tournament's
stream carries a ``withheld`` placeholder where the floor's has ``break_proposed``, so the event
numbers still hold."""

from __future__ import annotations

from server.fanout import Frame


def test_rule_12_c_the_break_order_never_reaches_a_display() -> None:
    staff = b'{"type":"break_proposed","table":"7","text":"break table 7 next"}'
    seated = b'{"type":"seated","player":"p1","table":"1","seat":3}'
    frame = Frame("main", "", 5, [staff, seated], 0.0)
    public = frame.encoded(True)
    assert b"break_proposed" not in public and b'"table":"7"' not in public
    assert b'{"type":"withheld"}' in public and seated in public
    assert staff in frame.encoded(False)
