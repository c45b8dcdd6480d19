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

Two more cuts (issue 13), because numba optimises and emits the machine code of a kernel's
whole call tree again in every kernel that links it, and gives every kernel entry points
for Python:

- a kernel is compiled twice from one source only when both are needed: the function
  Python calls, with its entry points, and a twin without them that other kernels call
  (``_INNER_OPTIONS``; about 0.15 s less per kernel, whose CPython wrapper unboxes the
  game context's 13 arrays);
- ``entry_point`` hands a kernel to others as a function pointer, so its callers compile
  without its call tree (the rules call the players so: ``game.Context.player``).

Speed (issue 13): numba counts the references to every array a kernel holds, with an
atomic increment and decrement around each use that its pruning pass cannot prove
needless; a decision passed the game context's 13 arrays through a dozen calls, and those
counts were a third of the default player's time. A kernel is therefore compiled without
numba's runtime (``_nrt=False``: no reference counts), unless ``@kernel(nrt=True)`` asks for
it; numba refuses to compile one that allocates an array or returns a new one without it
(the error names the kernel), so a missing ``nrt=True`` cannot go unnoticed. A kernel's
scratch arrays come from ``stack_empty``, on its own stack: no allocation and no runtime.

Under ``NUMBA_DISABLE_JIT=1`` the function is returned as plain Python.
"""

from __future__ import annotations

import types as pytypes

import numba as nb
import numpy as np
from numba.core import cgutils, types
from numba.core.imputils import lower_builtin
from numba.core.registry import CPUDispatcher
from numba.core.types import WrapperAddressProtocol
from numba.core.typing.templates import AbstractTemplate, infer_global, signature
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.experimental.function_type import _get_wrapper_address
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array, populate_array

from manoeuvre_sim.core.numba_cache import install_locator

# each game's kernels into its own keyed cache directory (numba_cache.py), before any exists
install_locator()


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
    argument layout, whatever integer widths and constants the call sites pass. With an
    ``_inner`` twin, calls from other kernels go to the twin instead (``kernel``)."""

    _inner = None

    def get_call_template(self, args, kws):
        args = tuple(_plain(a) for a in args)
        kws = {k: _plain(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    @property
    def _numba_type_(self):  # how a kernel that calls this one types it
        return types.Dispatcher(self._inner if self._inner is not None else self)


# njit options of the twin that other kernels call: no entry points for Python (numba's
# CPython wrapper, which unboxes every argument, the game context's 13 arrays included, and
# its C wrapper): about 0.15 s of compile time saved per kernel
_INNER_OPTIONS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


def _twin(f):
    """A copy of function ``f`` under its own qualified name (so its own cache files)."""
    g = pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__qualname__ = f.__qualname__ + "__inner"
    g.__kwdefaults__ = f.__kwdefaults__
    g.__doc__ = f.__doc__
    return g


def kernel(fn=None, **options):
    """``@kernel`` or ``@kernel(**njit_options)``: ``nb.njit(cache=True, ...)`` typed by
    ``_plain`` at calls from other kernels (the module docstring). Without numba's runtime
    (reference counts, allocation) unless ``nrt=True``.

    A kernel is two numba functions of one source: the one Python calls, and a twin without
    entry points for Python that other kernels call and link (``_INNER_OPTIONS``). A
    kernel inlined into its callers (``inline="always"``) is one."""

    options = dict(options)
    options["_nrt"] = options.pop("nrt", False)

    def wrap(f):
        d = nb.njit(cache=True, **options)(f)
        if type(d) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT (a plain function)
            d.__class__ = _PlainDispatcher
            if options.get("inline", "never") == "never":
                inner = nb.njit(cache=True, **options, **_INNER_OPTIONS)(_twin(f))
                inner.__class__ = _PlainDispatcher
                d._inner = inner
        return d

    return wrap(fn) if fn is not None else wrap


# ------------------------------------------------------------------------------------------
# a kernel called through a function pointer: its callers compile without it
# ------------------------------------------------------------------------------------------
class EntryPoint(WrapperAddressProtocol):
    """Kernel ``disp`` compiled for the one signature ``sig``, as a numba first-class
    function value (``types.FunctionType(sig)``) that Python can hand to a kernel (in a
    tuple field, say). Called from Python, it calls ``disp``."""

    def __init__(self, disp, sig):
        self.disp = disp
        self.sig = sig

    def signature(self):
        return self.sig

    def __wrapper_address__(self):
        # the C-ABI wrapper numba emits beside every compiled kernel
        return _get_wrapper_address(self.disp, self.sig)

    def __call__(self, *args):
        return self.disp(*args)


def entry_point(disp, sig):
    """A kernel-callable ``get()`` returning kernel ``disp`` compiled for ``sig`` as a
    first-class function value: a kernel that calls ``get()`` links ``disp``; a kernel that
    only receives the value and calls it reaches ``disp`` through a function pointer (numba's
    calling convention, exceptions included), so neither it nor its callers compile or link
    ``disp``'s call tree. Under ``NUMBA_DISABLE_JIT=1``, ``get()`` returns ``disp`` itself."""
    if not isinstance(disp, CPUDispatcher):  # NUMBA_DISABLE_JIT: plain Python

        def get():
            return disp

        return get
    fnty = types.FunctionType(sig)

    @intrinsic
    def get(typingctx):
        cres = disp.get_compile_result(sig)
        if cres.signature.return_type != sig.return_type:
            raise TypeError(f"{disp.py_func.__name__} returns {cres.signature.return_type}")

        def codegen(context, builder, signature, args):
            cres = disp.get_compile_result(sig)
            voidptr = context.get_value_type(types.voidptr)
            fn = context.declare_function(builder.module, cres.fndesc)
            value = cgutils.create_struct_proxy(fnty)(context, builder)
            value.jit_addr = builder.bitcast(fn, voidptr)
            value.c_addr = voidptr(None)
            value.py_addr = voidptr(None)  # no Python object: not boxable, but cacheable
            context.active_code_library.add_linking_library(cres.library)
            return value._getvalue()

        return fnty(), codegen

    return get


# ------------------------------------------------------------------------------------------
# scratch arrays on the stack
# ------------------------------------------------------------------------------------------
def stack_empty(shape, dtype):
    """``np.empty(shape, dtype)`` on the calling kernel's stack, for its scratch arrays:
    ``shape`` is constants (an int or a tuple of ints, numbers or names imported into the
    module: ``from state import HMAX``; an attribute such as ``S.HMAX`` is not a constant to
    numba). The array lives until the kernel returns: never return it or keep it.
    Uninitialised, as ``np.empty``. Called from Python (``NUMBA_DISABLE_JIT=1``, a
    kernel's ``py_func``) it is ``np.empty``."""
    return np.empty(shape, dtype=dtype)


def _stack_sizes(shape):
    dims = shape.types if isinstance(shape, types.BaseTuple) else (shape,)
    if not all(isinstance(d, types.IntegerLiteral) for d in dims):
        return None
    return [d.literal_value for d in dims]


@infer_global(stack_empty)
class _StackEmptyTyping(AbstractTemplate):
    def generic(self, args, kws):
        shape, dtype = args
        sizes = _stack_sizes(shape)
        if sizes is None or not isinstance(dtype, types.NumberClass):
            return None  # numba tries again with the literal types, then reports the call
        return signature(types.Array(dtype.dtype, len(sizes), "C"), shape, dtype)


@lower_builtin(stack_empty, types.Any, types.Any)
def _stack_empty_lowering(context, builder, sig, args):
    sizes = _stack_sizes(sig.args[0])
    arrty = sig.return_type
    ll = context.get_data_type(arrty.dtype)
    count = 1
    for s in sizes:
        count *= s
    # in the kernel's entry block: one buffer per call of the kernel, whatever its loops
    data = cgutils.alloca_once(builder, ll, size=max(count, 1))
    intp = context.get_value_type(types.intp)
    itemsize = context.get_abi_sizeof(ll)
    strides = []
    acc = itemsize
    for s in reversed(sizes):
        strides.insert(0, acc)
        acc *= s
    ary = make_array(arrty)(context, builder)
    populate_array(
        ary,
        data=data,
        shape=[intp(s) for s in sizes],
        strides=[intp(s) for s in strides],
        itemsize=intp(itemsize),
        meminfo=None,
    )
    return ary._getvalue()


# ------------------------------------------------------------------------------------------
# bits
# ------------------------------------------------------------------------------------------
def lowest_bit(x):
    """The index of the lowest set bit of the integer ``x`` != 0; in a kernel, numba's count
    of trailing zeros (one machine instruction)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(lowest_bit)
def _lowest_bit(x):
    def impl(x):
        return trailing_zeros(x)

    return impl
