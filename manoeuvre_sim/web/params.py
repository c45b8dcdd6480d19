"""Query parameters checked as the command line checks its options.

A page's parameters arrive as strings; :class:`Params` reads each one by the name of the
command-line option it stands for (``defense`` is ``--defense``) and raises
:class:`~manoeuvre_sim.core.errors.UsageError` with the CLI's wording when it is malformed,
so the 400 page says which parameter and why, exactly as the terminal would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from manoeuvre_sim.core.errors import UsageError, did_you_mean

# no request may ask for more than this many characters in one parameter (a URL is a link
# someone shares: long values are a mistake or an attack, never an input)
MAX_VALUE_CHARS = 200


def flag(name: str) -> str:
    """The command-line spelling of a parameter: ``defender_strength`` -> ``--defender-strength``."""
    return "--" + name.replace("_", "-")


class Params:
    """Typed, checked access to a request's query parameters.

    Parameters
    ----------
    query : mapping of str to str, or a Starlette ``QueryParams``
        The parameters as sent. Repeated ones (``dice=2d6&dice=1d8``) are read with
        :meth:`strings`.
    longer : mapping of str to int, optional
        The parameters that may be longer than :data:`MAX_VALUE_CHARS` (a form's text box
        of several lines), and their own cap.
    """

    def __init__(self, query, longer: Mapping[str, int] | None = None):
        self._q = query
        for key in self._keys():
            cap = (longer or {}).get(key, MAX_VALUE_CHARS)
            for value in self._all(key):
                if len(value) > cap:
                    raise UsageError(
                        f"{flag(key)}: expected at most {cap} characters, got {len(value)}"
                    )

    def _keys(self) -> list[str]:
        return list(self._q.keys())

    def _all(self, name: str) -> list[str]:
        if hasattr(self._q, "getlist"):
            return [v for v in self._q.getlist(name)]
        value = self._q.get(name)
        if value is None:
            return []
        return list(value) if isinstance(value, list | tuple) else [value]

    def raw(self, name: str) -> str | None:
        """The parameter's last value as sent, stripped; ``None`` when absent or empty."""
        values = self._all(name)
        if not values:
            return None
        value = values[-1].strip()
        return value or None

    def has(self, name: str) -> bool:
        return self.raw(name) is not None

    def string(self, name: str, default: str | None = None) -> str | None:
        value = self.raw(name)
        return default if value is None else value

    def strings(self, name: str) -> tuple[str, ...]:
        """Every non-empty value of a repeatable parameter, in order."""
        return tuple(v.strip() for v in self._all(name) if v.strip())

    def integer(
        self,
        name: str,
        default: int | None = None,
        *,
        lo: int | None = None,
        hi: int | None = None,
    ) -> int | None:
        """An integer, as click's ``type=int`` reads it; ``lo``/``hi`` bound it inclusively."""
        value = self.raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise UsageError(f"{flag(name)}: {value!r} is not a valid integer") from None
        _bounded(name, number, lo, hi)
        return number

    def integers(
        self, name: str, *, lo: int | None = None, hi: int | None = None
    ) -> tuple[int, ...]:
        """Every value of a repeatable integer parameter (``--card 4 --card 5``)."""
        out = []
        for value in self.strings(name):
            try:
                number = int(value)
            except ValueError:
                raise UsageError(f"{flag(name)}: {value!r} is not a valid integer") from None
            _bounded(name, number, lo, hi)
            out.append(number)
        return tuple(out)

    def boolean(self, name: str) -> bool:
        """A flag: absent, ``0``, ``false``, ``off`` or ``no`` is off; ``1``, ``true``, ``on``,
        ``yes`` (a checked checkbox sends ``on``) is on; anything else is refused."""
        value = self.raw(name)
        if value is None:
            return False
        low = value.lower()
        if low in ("1", "true", "on", "yes"):
            return True
        if low in ("0", "false", "off", "no"):
            return False
        raise UsageError(f"{flag(name)}: expected on or off (a flag), got {value!r}")

    def choice(self, name: str, choices: Sequence[str], default: str | None = None) -> str | None:
        """One of ``choices`` (case-sensitive, as click.Choice), with a did-you-mean hint."""
        value = self.raw(name)
        if value is None:
            return default
        if value not in choices:
            listed = ", ".join(repr(c) for c in choices)
            raise UsageError(
                f"{flag(name)}: {value!r} is not one of {listed}{did_you_mean(value, choices)}"
            )
        return value

    def only(self, allowed: Sequence[str]) -> None:
        """Refuse a parameter the page does not take (a typo must not be silently ignored)."""
        for key in self._keys():
            if key not in allowed:
                raise UsageError(
                    f"{flag(key)}: no such parameter on this page{did_you_mean(key, allowed)}"
                )


def _bounded(name: str, number: int, lo: int | None, hi: int | None) -> None:
    if lo is not None and hi is not None and not lo <= number <= hi:
        raise UsageError(f"{flag(name)}: expected an integer from {lo} to {hi}, got {number}")
    if lo is not None and number < lo:
        raise UsageError(f"{flag(name)}: expected an integer >= {lo}, got {number}")
    if hi is not None and number > hi:
        raise UsageError(f"{flag(name)}: expected an integer <= {hi}, got {number}")


def from_mapping(values: Mapping[str, object]) -> Params:
    """:class:`Params` over a plain dict (tests, and pages that re-read a stored query)."""
    return Params({k: v if isinstance(v, list | tuple) else str(v) for k, v in values.items()})
