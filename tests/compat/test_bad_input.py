"""Bad input to funcgrad.compat, generated: wrong dims (out of range, float, str, bool, repeated),
wrong sizes and integer arguments, wrong dtypes, Python objects, NaN/inf, empty and 0-d tensors,
shapes that do not broadcast, zero/negative conv and pool windows.

No test imports torch, so the oracle is a table of rules written from torch 2.13's observed
behaviour (``expect_*`` below; scripts/check_bad_input_rules.py replays these tests against real
torch and fails where a rule mispredicts it).  Each case asserts: where the rule says torch raises,
compat raises PyTorch's class with a message naming the function or the argument; where torch
returns, compat returns a tensor of torch's shape (and dtype) — never a value where torch raises.
"""

import operator
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import funcgrad.compat as torch_compat


class Raises:
    def __init__(self, cls, *names):
        self.cls, self.names = cls, names  # names: one of them (case-insensitive) is in the message

    def __repr__(self):
        return f"raises {self.cls.__name__}"


class Returns:
    def __init__(self, shape, dtype=None):
        self.shape, self.dtype = tuple(shape), dtype

    def __repr__(self):
        return f"returns shape {self.shape}" + (f" {self.dtype}" if self.dtype else "")


def _run(call, module):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return call(module), None
        except Exception as e:  # noqa: BLE001 - the exception is what is checked
            return None, e


def check(call, expected, module=torch_compat):
    """``call(module)`` does what the rule ``expected`` says torch 2.13 does."""
    got, err = _run(call, module)
    if isinstance(expected, Raises):
        assert err is not None, f"torch {expected}; {module.__name__} returned {got!r}"
        assert expected.cls.__name__ in [c.__name__ for c in type(err).__mro__], (
            f"torch {expected}; {module.__name__} raised {type(err).__name__}: {err}")
        msg = str(err).lower()
        assert any(n.lower() in msg for n in expected.names), f"message names none of {expected.names}: {err}"
        return
    assert err is None, f"torch {expected}; {module.__name__} raised {type(err).__name__}: {err}"
    out = got[0] if isinstance(got, tuple) else got
    assert tuple(out.shape) == expected.shape, f"shape {tuple(out.shape)}, torch's {expected.shape}"
    if expected.dtype is not None:
        assert str(out.dtype).split(".")[-1] == expected.dtype, f"dtype {out.dtype}, torch's {expected.dtype}"


def is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


# --- strategies -------------------------------------------------------------------------------

shapes = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)
special = st.sampled_from([0.0, -0.0, 0.5, 1.0, 1.5, -2.0, np.nan, np.inf, -np.inf])


@st.composite
def arrays(draw, shape=shapes):
    s = draw(shape)
    n = int(np.prod(s))
    return np.array(draw(st.lists(special, min_size=n, max_size=n)), dtype=np.float32).reshape(s)


dim_like = st.one_of(
    st.integers(-4, 4), st.booleans(), st.floats(-2, 2), st.sampled_from(["a", "0", None]),
    st.lists(st.integers(-3, 3), min_size=1, max_size=3).map(tuple), st.just((0, 1.0)), st.just(np.int64(0)),
)
int_like = st.one_of(st.integers(-3, 5), st.booleans(), st.sampled_from([1.5, 2.0, "2", None, np.int64(1)]))
size_like = st.one_of(st.integers(-2, 6), st.sampled_from([2.0, 2.5, True, "2", None, np.int64(3)]))
python_objects = st.sampled_from([None, "abc", object(), [1, [2, 3]], {1: 2}, b"x"])
dtypes = st.sampled_from(["float32", "float64", "int64", "int32", "bool", "complex64"])


def T(module, a, dtype=None):
    """The numpy array ``a`` as a tensor of ``module`` (funcgrad.compat or torch)."""
    t = module.tensor(np.asarray(a).tolist(), dtype=getattr(module, dtype) if dtype else module.float32)
    return t.reshape(np.shape(a))


# --- dims -------------------------------------------------------------------------------------

# name -> (takes a tuple of dims, reduces the dim, None allowed (reduces all), an empty dim raises)
DIM_FUNCS = {
    "sum": (True, True, True, False), "mean": (True, True, True, False), "std": (True, True, True, False),
    "logsumexp": (True, True, False, False), "amax": (True, True, True, True), "nansum": (True, True, True, False),
    "argmax": (False, True, True, True), "argmin": (False, True, True, True), "cumsum": (False, False, False, False),
    "softmax": (False, False, False, False), "log_softmax": (False, False, False, False),
    "flip": (True, False, False, False), "squeeze": (True, None, True, False), "unsqueeze": (False, None, False, False),
}


def _norm(d, nd):
    nd = max(nd, 1)
    return d % nd if -nd <= d < nd else None


def expect_dim(name, shape, dim):
    """torch 2.13's outcome of ``x.<name>(dim)`` on a float32 tensor of ``shape``."""
    tup, reduces, none_ok, empty_raises = DIM_FUNCS[name]
    nd = len(shape) + (name == "unsqueeze")
    if dim is None:
        if not none_ok:
            return Raises(TypeError, name, "dim")
        if name == "squeeze":
            return Returns(tuple(n for n in shape if n != 1))
        if empty_raises and 0 in shape:
            return Raises(IndexError, name, "numel", "dim")
        return Returns(())
    dims = dim if isinstance(dim, tuple) else (dim,)
    if isinstance(dim, tuple) and not tup or not all(is_int(d) for d in dims):
        return Raises(TypeError, name, "dim")
    ds = [_norm(int(d), nd) for d in dims]
    if None in ds:
        return Raises(IndexError, "dim")
    if len(set(ds)) != len(ds):
        return Raises(RuntimeError, "dim")
    if name == "unsqueeze":
        return Returns(shape[:ds[0]] + (1,) + shape[ds[0]:])
    if name == "squeeze":
        return Returns(tuple(n for i, n in enumerate(shape) if not (i in ds and n == 1)))
    if empty_raises and shape and any(shape[d] == 0 for d in ds):
        return Raises(IndexError, name, "dim")
    if reduces and shape:
        return Returns(tuple(n for i, n in enumerate(shape) if i not in ds))
    return Returns(shape)


@given(a=arrays(), dim=dim_like, name=st.sampled_from(sorted(DIM_FUNCS)))
def test_dim(a, dim, name):
    if name == "flip":  # flip's dims by position (torch's keyword ``dims=`` takes only a tuple)
        check(lambda m: T(m, a).flip(dim), expect_dim(name, a.shape, dim))
        return
    if name == "std" and isinstance(dim, bool):
        return  # torch reads std(True) by position as the legacy ``unbiased``, std(dim=True) as a TypeError;
        #         compat's one signature cannot tell the two apart and takes the legacy reading
    check(lambda m: getattr(T(m, a), name)(dim=dim), expect_dim(name, a.shape, dim))


@given(a=arrays(), dim=dim_like)
def test_dim_of_cat_stack_and_functional_softmax(a, dim):
    plain = expect_dim("cumsum", a.shape, dim)  # an int dim in range, as cat takes it
    if a.ndim == 0 and is_int(dim):
        plain = Raises(RuntimeError, "zero-dimensional", "cat")  # cat refuses 0-d tensors (before the range)
    elif a.shape == (0,) and is_int(dim):
        plain = Returns((0,))  # empty 1-d tensors are skipped by cat (legacy), whatever the dim
    elif isinstance(plain, Returns):
        d = int(dim) % a.ndim
        plain = Returns(a.shape[:d] + (2 * a.shape[d],) + a.shape[d + 1:])
    check(lambda m: m.cat([T(m, a), T(m, a)], dim=dim), plain)
    stacked = expect_dim("unsqueeze", a.shape, dim)
    check(lambda m: m.stack([T(m, a), T(m, a)], dim=dim),
          Returns(stacked.shape[:int(dim) % (a.ndim + 1)] + (2,) + stacked.shape[int(dim) % (a.ndim + 1) + 1:])
          if isinstance(stacked, Returns) else stacked)
    if dim is not None:
        check(lambda m: m.nn.functional.softmax(T(m, a), dim=dim), expect_dim("softmax", a.shape, dim))


# --- sizes and integer arguments --------------------------------------------------------------

def expect_sizes(sizes, numel, fname):
    """reshape/view to ``sizes`` of a tensor of ``numel`` elements."""
    if not all(is_int(s) for s in sizes):
        return Raises(TypeError, fname, "size", "shape")
    sizes = tuple(int(s) for s in sizes)
    if sizes.count(-1) > 1:
        return Raises(RuntimeError, "dimension")
    if any(s < -1 for s in sizes):
        return Raises(RuntimeError, "invalid", "dimension")
    known = int(np.prod([s for s in sizes if s != -1]))
    if -1 in sizes:
        if known == 0 or numel % known:
            return Raises(RuntimeError, "invalid", "shape")
        return Returns(tuple(numel // known if s == -1 else s for s in sizes))
    return Returns(sizes) if known == numel else Raises(RuntimeError, "invalid", "shape")


@given(shape=st.sampled_from([(6,), (2, 3), (0,), (1, 6)]), sizes=st.lists(size_like, min_size=1, max_size=3),
       name=st.sampled_from(["reshape", "view"]))
def test_sizes(shape, sizes, name):
    if any(isinstance(s, bool) for s in sizes[1:]):
        return  # torch's list parser checks the first element's type only, so takes a later True as 1;
        #         compat refuses a bool size anywhere
    a = np.zeros(shape, np.float32)
    check(lambda m: getattr(T(m, a), name)(tuple(sizes)), expect_sizes(sizes, a.size, name))


def expect_int_arg(name, n, v):
    """``x.<name>(v)`` on a 1-d tensor of n elements (chunk, topk, narrow's length, split, unfold's step)."""
    if not is_int(v) or name == "split" and type(v) is not int:  # split: a non-int size is a list of sizes
        return Raises(TypeError, name, "must be int", "split_size")
    v = int(v)
    if name == "chunk":
        if v <= 0:
            return Raises(RuntimeError, "chunk")
        k = -(-n // v) if n else 1
        return Returns((min(k, n),))
    if name == "topk":
        return Returns((v,)) if 0 <= v <= n else Raises(RuntimeError, "k")
    if name == "narrow":
        if v < 0:
            return Raises(RuntimeError, "narrow", "length")
        return Returns((v,)) if v <= n else Raises(RuntimeError, "length", "exceeds")
    if name == "split":
        if v < 0:
            return Raises(RuntimeError, "split")
        if v == 0 and n:
            return Raises(RuntimeError, "split_size")
        return Returns((min(v, n),))
    if v <= 0:  # unfold(0, 1, step)
        return Raises(RuntimeError, "step")
    return Returns(((n - 1) // v + 1, 1)) if n else Returns((0, 1))


@given(n=st.integers(0, 4), v=int_like, name=st.sampled_from(["chunk", "topk", "narrow", "split", "unfold"]))
def test_integer_arguments(n, v, name):
    a = np.arange(n, dtype=np.float32)
    calls = {"chunk": lambda x: x.chunk(v), "topk": lambda x: x.topk(v), "narrow": lambda x: x.narrow(0, 0, v),
             "split": lambda x: x.split(v), "unfold": lambda x: x.unfold(0, 1, v)}
    if name == "unfold" and n == 0:
        return  # a window of 1 on an empty dim: torch refuses it by size before it reads the step
    check(lambda m: calls[name](T(m, a)), expect_int_arg(name, n, v))


# --- dtypes -----------------------------------------------------------------------------------

def expect_product(da, db):
    """matmul/mm/F.linear of float/int/bool/complex operands: torch does not promote."""
    if da != db:
        return Raises(RuntimeError, "dtype")
    if da == "bool":
        return None  # NotImplementedError in torch ("addmm_impl_cpu_" not implemented for 'Bool'): not ruled
    return Returns((2, 2), da)


@given(da=dtypes, db=dtypes, name=st.sampled_from(["matmul", "mm", "linear"]))
def test_product_dtypes(da, db, name):
    rule = expect_product(da, db)
    if rule is None or "int32" in (da, db) and da == db:
        return  # int32 products: torch's CPU kernels for int32 matmul are not ruled here
    fn = {"matmul": lambda m, a, b: m.matmul(a, b), "mm": lambda m, a, b: m.mm(a, b),
          "linear": lambda m, a, b: m.nn.functional.linear(a, b)}[name]
    check(lambda m: fn(m, T(m, np.ones((2, 2)), da), T(m, np.ones((2, 2)), db)), rule)


floats = st.sampled_from(["float32", "float64"])


@given(dx=floats, dw=floats, db=st.one_of(st.none(), floats), name=st.sampled_from(["conv1d", "conv2d", "linear"]))
def test_layer_dtypes(dx, dw, db, name):
    """PyTorch's layers do not promote: input, weight and bias of one dtype."""
    nd = {"conv1d": 1, "conv2d": 2, "linear": 0}[name]
    x = np.ones((1, 2) + (4,) * nd)
    w = np.ones((3, 2) + (3,) * nd) if nd else np.ones((3, 2))
    ok = dx == dw and db in (None, dx)
    out = (1, 3) + (2,) * nd
    def call(m):
        bias = None if db is None else T(m, np.ones(3), db)
        return getattr(m.nn.functional, name)(T(m, x, dx), T(m, w, dw), bias)
    check(call, Returns(out, dx) if ok else Raises(RuntimeError, "type", "dtype"))


@given(reduction=st.sampled_from(["mean", "sum", "none", "bad", "MEAN", ""]),
       name=st.sampled_from(["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy"]))
def test_loss_reduction(reduction, name):
    a = np.full((2, 3), 0.5)
    rule = Returns((2, 3) if reduction == "none" else ()) if reduction in ("mean", "sum", "none") else \
        Raises(ValueError, "reduction")
    check(lambda m: getattr(m.nn.functional, name)(T(m, a), T(m, a), reduction=reduction), rule)


@given(dc=dtypes, dx=st.sampled_from(["float32", "float64"]))
def test_index_and_condition_dtypes(dc, dx):
    m1 = np.array([1, 0])
    where_rule = Returns((2,)) if dc == "bool" else Raises(RuntimeError, "where", "condition")
    check(lambda m: m.where(T(m, m1, dc), T(m, np.ones(2), dx), T(m, np.zeros(2), dx)), where_rule)
    int_idx = dc in ("int64", "int32")
    check(lambda m: m.nn.functional.one_hot(T(m, m1, dc), 3),
          Returns((2, 3), "int64") if dc == "int64" else Raises(RuntimeError, "one_hot"))
    check(lambda m: m.nn.functional.embedding(T(m, m1, dc), T(m, np.ones((3, 2)), dx)),
          Returns((2, 2), dx) if int_idx else Raises(RuntimeError, "indices", "embedding"))
    check(lambda m: T(m, np.ones(3), dx).index_select(0, T(m, m1, dc)),
          Returns((2,)) if int_idx else Raises(RuntimeError, "index_select", "index"))
    if dc not in ("float32", "float64", "complex64"):  # float targets are class probabilities
        check(lambda m: m.nn.functional.cross_entropy(T(m, np.ones((2, 3)), dx), T(m, m1, dc)),
              Returns(()) if dc == "int64" else Raises(RuntimeError, "target"))


# --- indexing ---------------------------------------------------------------------------------

index_like = st.one_of(st.integers(-5, 5), st.booleans(), st.sampled_from([None, 1.5, "a", Ellipsis]))


def expect_getitem(n, i):
    """``x[i]`` of a 1-d tensor of n elements."""
    if i is None or isinstance(i, bool):
        return Returns((0 if i is False else 1, n))
    if i is Ellipsis:
        return Returns((n,))
    if isinstance(i, str):
        return Raises(TypeError, "str")  # torch reads a string index as data for a new index tensor
    if not is_int(i):
        return Raises(IndexError, "index", "only integers")
    return Returns(()) if -n <= i < n else Raises(IndexError, "index", "out of range", "bounds")


def expect_positions(n, idx, fname):
    """gather/index_select/take of a 1-d tensor of n elements at integer positions ``idx``."""
    if fname == "take":
        ok = all(-n <= i < n for i in idx)
    else:
        ok = all(0 <= i < n for i in idx)
    if ok:
        return Returns((len(idx),))
    return Raises(RuntimeError if fname == "gather" else IndexError, "index", "out of", "bounds", fname)


@given(n=st.integers(0, 3), i=index_like, idx=st.lists(st.integers(-4, 4), min_size=1, max_size=3),
       fname=st.sampled_from(["gather", "index_select", "take"]))
def test_indexing(n, i, idx, fname):
    a = np.arange(n, dtype=np.float32)
    check(lambda m: T(m, a)[i], expect_getitem(n, i))
    calls = {"gather": lambda m, x, t: x.gather(0, t), "index_select": lambda m, x, t: x.index_select(0, t),
             "take": lambda m, x, t: x.take(t)}
    check(lambda m: calls[fname](m, T(m, a), T(m, np.array(idx), "int64")), expect_positions(n, idx, fname))


# --- Python objects ---------------------------------------------------------------------------

@given(obj=python_objects, name=st.sampled_from(["sin", "exp", "sum", "abs", "neg"]))
def test_python_objects_as_tensors(obj, name):
    check(lambda m: getattr(m, name)(obj), Raises(TypeError, name, "input", "tensor"))


@given(obj=python_objects)
def test_python_objects_as_operands_and_values(obj):
    def setitem(m):
        x = T(m, np.ones(3))
        x[0] = obj
        return x
    check(setitem, Raises(TypeError, "assign", "NoneType", "str", "object", "list", "dict", "bytes", "index"))
    check(lambda m: m.cat(obj), Raises(TypeError, "cat", "tensor"))
    check(lambda m: m.nn.functional.linear(obj, T(m, np.ones((2, 2)))), Raises(TypeError, "linear", "input"))


# --- NaN, inf and values out of range ---------------------------------------------------------

@given(a=arrays(st.sampled_from([(3,), (2, 2), (0,)])))
def test_special_values(a):
    inside = bool(np.all((a >= 0) & (a <= 1)))
    check(lambda m: m.nn.functional.binary_cross_entropy(T(m, a), T(m, np.full(a.shape, 0.5))),
          Returns(()) if inside else Raises(RuntimeError, "between 0 and 1"))
    check(lambda m: T(m, a).long(), Returns(a.shape, "int64"))  # NaN/inf cast: no error in torch
    check(lambda m: T(m, a).sort().values, Returns(a.shape))
    labels = np.nan_to_num(a, nan=-1, posinf=5, neginf=-5).astype(np.int64)
    ok = labels.size == 0 or (labels.min() >= 0 and labels.max() < 2)
    check(lambda m: m.nn.functional.one_hot(T(m, labels, "int64"), 2),
          Returns(labels.shape + (2,)) if ok else Raises(RuntimeError, "class values"))


# --- broadcasting -----------------------------------------------------------------------------

def expect_broadcast(a, b):
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x, y = (a[-i] if i <= len(a) else 1), (b[-i] if i <= len(b) else 1)
        if x != y and 1 not in (x, y):
            return Raises(RuntimeError, "size of tensor", "must match", "broadcast")
        out.append(x if y == 1 else y)
    return Returns(tuple(reversed(out)))


@given(sa=shapes, sb=shapes, name=st.sampled_from(["add", "mul", "maximum", "mse_loss", "l1_loss", "where"]))
def test_broadcast(sa, sb, name):
    a, b = np.ones(sa, np.float32), np.ones(sb, np.float32)
    rule = expect_broadcast(sa, sb)
    if name in ("mse_loss", "l1_loss"):
        call = lambda m: getattr(m.nn.functional, name)(T(m, a), T(m, b), reduction="none")  # noqa: E731
    elif name == "where":
        call = lambda m: m.where(T(m, a, "bool"), T(m, a), T(m, b))  # noqa: E731
    else:
        call = lambda m: getattr(m, name)(T(m, a), T(m, b))  # noqa: E731
    check(call, rule)


# --- conv and pool windows --------------------------------------------------------------------

window = st.sampled_from([-1, 0, 1, 2, 2.5])


def expect_window(kind, kernel, stride, padding):
    """conv2d (kernel from the weight's shape) / max_pool2d / avg_pool2d on a (1, 1, 4, 4) input."""
    if not all(is_int(v) for v in (kernel, stride, padding)):
        return Raises(TypeError, kind, "kernel_size", "stride", "padding", "size")
    bad = Raises(RuntimeError, "kernel", "stride", "pad", "size")  # torch's order of these checks varies
    if kernel <= 0 or stride <= 0 or padding < 0 or kind != "conv2d" and padding > kernel // 2:
        return bad
    n = (4 + 2 * padding - kernel) // stride + 1
    return Returns((1, 1, n, n)) if n > 0 else bad


@given(kernel=window, stride=window, padding=window, kind=st.sampled_from(["conv2d", "max_pool2d", "avg_pool2d"]))
def test_windows(kernel, stride, padding, kind):
    x = np.ones((1, 1, 4, 4), np.float32)
    if kind == "conv2d":
        if not is_int(kernel) or kernel < 0:
            return  # a float/negative kernel cannot make the weight tensor: creation's rules, not conv's
        call = lambda m: m.nn.functional.conv2d(T(m, x), T(m, np.ones((1, 1, kernel, kernel))),  # noqa: E731
                                                stride=stride, padding=padding)
    else:
        call = lambda m: getattr(m.nn.functional, kind)(T(m, x), kernel, stride=stride, padding=padding)  # noqa: E731
    check(call, expect_window(kind, kernel, stride, padding))


def test_the_oracle_catches_a_value_where_torch_raises():
    with pytest.raises(AssertionError, match="returned"):
        check(lambda m: operator.add(1, 2), Raises(TypeError, "x"))


@pytest.mark.parametrize(("call", "cls", "match"), [
    (lambda: torch_compat.zeros(2 ** 46), RuntimeError, "can't allocate memory"),
    (lambda: torch_compat.randn(2 ** 46), RuntimeError, "can't allocate memory"),
    (lambda: torch_compat.full((2 ** 46,), 1.0), RuntimeError, "can't allocate memory"),
    (lambda: torch_compat.arange(0, 1e18), RuntimeError, "can't allocate memory"),
    (lambda: torch_compat.ones(2 ** 31, 2 ** 31), RuntimeError, "Storage size calculation overflowed"),
    (lambda: torch_compat.empty(10 ** 20), TypeError, "Overflow when unpacking"),
])
def test_huge_sizes_fail_at_once_with_pytorchs_class(call, cls, match):
    """Sizes past any address space (2**46 floats: 256 TiB, so no allocator accepts them lazily): PyTorch's
    class (RuntimeError from its allocator, TypeError past int64), at once — never MemoryError, never a hang."""
    with pytest.raises(cls, match=match):
        call()
