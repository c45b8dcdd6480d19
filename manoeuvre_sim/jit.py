"""``kernel``: the engine's numba decorator, ``nb.njit(cache=True)`` compiled once per
argument layout rather than once per integer width and constant.

numba compiles a kernel once for every distinct tuple of argument types it is called with
from another kernel, and a whole call tree under it with it. Left alone it types a seat read
from the state (``st[S.FIRST]``, int32) apart from ``1 - first`` (int64), and a constant
argument (``decide(..., 2)``) as its own literal type, so the rules and the players were
compiled up to ten times each (issue 13: about 500 compilations for one game). A kernel
decorated with ``kernel`` is typed, when another kernel calls it, with its integer
arguments as int64 and its literals as their plain types: one compilation each. Arithmetic
is unchanged (numba computes on narrower signed integers in int64 anyway) and so are the
arrays, whose types are kept.

Under ``NUMBA_DISABLE_JIT=1`` the function is returned as plain Python.
"""

from __future__ import annotations

import numba as nb
from numba.core import types
from numba.core.registry import CPUDispatcher


def _plain(t):
    """int64 for a signed integer scalar narrower than 64 bits or an integer literal, the
    plain type for any other literal (a bool), ``t`` otherwise (arrays, tuples, floats)."""
    if isinstance(t, types.Literal):
        t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    return t


class _PlainDispatcher(CPUDispatcher):
    """A dispatcher whose callers type its arguments with ``_plain``: one compilation per
    argument layout, whatever integer widths and constants the call sites pass."""

    def get_call_template(self, args, kws):
        args = tuple(_plain(a) for a in args)
        kws = {k: _plain(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def kernel(fn=None, **options):
    """``@kernel`` or ``@kernel(**njit_options)``: ``nb.njit(cache=True, ...)`` typed by
    ``_plain`` at calls from other kernels (the module docstring)."""

    def wrap(f):
        d = nb.njit(cache=True, **options)(f)
        if type(d) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT (a plain function)
            d.__class__ = _PlainDispatcher
        return d

    return wrap(fn) if fn is not None else wrap
