"""What the server may read: only files under the studies folder.

Every path a page takes (a study directory, a trace) is relative to the studies folder the
server was started over. :func:`confine` refuses an absolute path, a ``..`` part (however it
was encoded: the server sees parameters decoded), a NUL byte, and a symlink that resolves
outside the folder; the refusal is a :class:`~manoeuvre_sim.core.errors.UsageError` that the
page shows as a 400 with its reason.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.core.games import hook


def confine(root: Path, relative: str, what: str = "--study") -> Path:
    """``root / relative`` resolved, when it stays under ``root``; else a UsageError.

    Parameters
    ----------
    root : Path
        The studies folder (need not exist yet: nothing under it is then served).
    relative : str
        The path as the page received it, ``/``-separated, relative to ``root``.
    what : str
        The parameter's name for the error line.
    """
    text = str(relative)
    if "\x00" in text or "\\" in text:
        raise UsageError(f"{what}: {text!r} is not a path under the studies folder")
    pure = PurePosixPath(text)
    if pure.is_absolute() or text.startswith("~"):
        raise UsageError(
            f"{what}: {text!r} is an absolute path; give a path under the studies folder"
        )
    if any(part == ".." for part in pure.parts):
        raise UsageError(f"{what}: {text!r} leaves the studies folder ('..' is refused)")
    base = Path(root).resolve()
    target = (base / pure).resolve()
    if target != base and base not in target.parents:
        raise UsageError(f"{what}: {text!r} leaves the studies folder (a link outside it)")
    return target


def relative_name(root: Path, path: Path) -> str:
    """``path`` as the ``/``-separated name pages use for it under ``root``."""
    return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()


# ---- who may talk to the server: the Host it answers, the Origin it takes forms from ----
# The names loopback answers to. A page of another site whose name an attacker rebinds to
# 127.0.0.1 (DNS rebinding) sends its own name as the Host: only these, or the --host the
# server was started on, are served (Starlette's TrustedHostMiddleware), so such a page can
# neither read a study nor post a form.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")  # as a Host header names them
SCHEME = "http"  # the workbench serves plain HTTP on loopback, nothing else


def allowed_hosts(host: str | None = None) -> list[str]:
    """The Host names the server answers (an IPv6 address in brackets, as a Host header
    holds it): loopback's, and ``host`` (``ui --host``) when it is another name or address.
    ``0.0.0.0`` or ``::`` (every interface) adds none: a visitor from another machine is
    served only when the server is started on the address it types."""
    names = list(LOOPBACK_HOSTS)
    if host and host.strip("[]") not in ("0.0.0.0", "::"):
        bare = host.strip("[]").lower()
        name = f"[{bare}]" if ":" in bare else bare
        if name not in names:
            names.append(name)
    return names


def same_origin(origin: str, host: str) -> bool:
    """Whether ``origin`` (a request's ``Origin``, or its ``Referer``) is this server:
    the scheme ``http`` and the very ``host[:port]`` the request was sent to (a Host the
    middleware already checked). ``https://127.0.0.1:PORT`` or another port is another
    origin (RFC 6454), and refused."""
    from urllib.parse import urlsplit

    if not origin or origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme == SCHEME and parts.netloc.lower() == host.lower()


# ---- players a page may ask for -------------------------------------------------------
MAX_REPLAY_COST = 10_000  # one replayed game, in games of the scripted players (seconds)


def seat_cost(game):
    """The game's ``policy_cost`` (one seat's share of a game, in games of the scripted
    players); a game without one: every seat half a game."""
    return hook(game, "policy_cost")


def check_players(game, specs, flags, *, cap: float | None = None) -> float:
    """Refuse, in one line naming the option as typed, a player a page may not ask for:
    a value model given as a file (``...:wFILE.npz``: a path the server would open outside
    the studies folder; the built-in models' names are taken) or, with ``cap``, players
    whose one game costs more than ``cap`` games of the scripted players (the game's
    ``policy_cost``: a search player's rollouts). Returns the game's cost."""
    cost = seat_cost(game)
    total = 0.0
    for spec, flag in zip(specs, flags, strict=True):
        if ".npz" in str(spec).lower():
            raise UsageError(
                f"{flag}: {spec!r}: a value model file is the command line's; the workbench "
                "takes a built-in model's name"
            )
        total += cost(spec)
    if cap is not None and total > cap:
        raise UsageError(
            f"{'/'.join(dict.fromkeys(flags))}: {' and '.join(map(str, specs))}: one game costs as much as "
            f"{total:,.0f} games of the scripted players; a replay on the workbench may cost "
            f"at most {cap:,} (a smaller search budget, or `replay` on the command line)"
        )
    return total
