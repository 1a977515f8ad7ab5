"""PyTorch's module layout (torch.nn.modules.*, torch.backends, torch.jit, torch.onnx), Tensor protocols,
multinomial and Generator."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

IMPORTS = """
import torch, torch.nn as nn, torch.nn.functional as F, torch.optim as optim
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split
from torch.nn.modules.linear import Linear
from torch.nn.modules.conv import _ConvNd, Conv2d
from torch.nn.modules.loss import _Loss
from torch.nn.modules.batchnorm import _BatchNorm
from torch.nn.modules import activation, container, dropout, normalization, pooling, sparse, flatten, module
from torch.nn.parallel import DataParallel
from torch.nn.utils import clip_grad_norm_
from torch.optim.lr_scheduler import StepLR
import torch.backends.cudnn as cudnn
import torch.jit, torch.onnx, torch.autograd, torch.linalg, torch.cuda
from torch.cuda import is_available
import funcgrad.compat
assert torch.cuda is funcgrad.compat.cuda and is_available() == funcgrad.compat.cuda.is_available()
assert torch is funcgrad.compat and nn is funcgrad.compat.nn and Linear is nn.Linear
assert torch.nn.modules.conv.Conv2d is nn.Conv2d is Conv2d and issubclass(Conv2d, _ConvNd)
assert DataParallel is nn.DataParallel and activation.ReLU is nn.ReLU and sparse.Embedding is nn.Embedding
class MyLoss(_Loss):
    def forward(self, a, b):
        return ((a - b) ** 2).mean() if self.reduction == "mean" else ((a - b) ** 2).sum()
print(MyLoss()(torch.ones(3), torch.zeros(3)).item(), cudnn.benchmark, type(DataLoader).__name__)
"""


def test_torch_import_paths_resolve_to_compat():
    r = subprocess.run([sys.executable, "-c", "from funcgrad.compat.launcher import install; install()\n" + IMPORTS],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1.0", "False", "type"]


def test_install_refuses_when_real_torch_already_imported():
    code = "import sys, types\nsys.modules['torch'] = types.ModuleType('torch')\n" \
           "from funcgrad.compat.launcher import install\ninstall()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert r.returncode == 1 and "already imported" in r.stderr


def test_nn_modules_layout_aliases_existing_classes():
    assert nn.modules.linear.Linear is nn.Linear
    assert nn.modules.Linear is nn.Linear
    assert issubclass(nn.modules.batchnorm.BatchNorm1d, nn.modules.batchnorm._BatchNorm)
    assert nn.modules.container.Sequential is nn.Sequential
    assert nn.modules.module.Module is nn.Module
    assert "Linear" in nn.modules.linear.__all__ and "_ConvNd" not in nn.modules.conv.__all__
    assert nn.modules.rnn.LSTM is nn.LSTM and issubclass(nn.modules.rnn.GRU, nn.modules.rnn._RNNBase)
    assert nn.modules.instancenorm.InstanceNorm2d is nn.InstanceNorm2d
    assert nn.modules.transformer.TransformerEncoderLayer is nn.TransformerEncoderLayer
    assert nn.modules.activation.MultiheadAttention is nn.MultiheadAttention


def test_subclassing_a_layout_class_trains():
    class Tiny(nn.modules.linear.Linear):
        def forward(self, x):
            return super().forward(x) * 2

    m = Tiny(2, 1)
    loss = m(torch.ones(4, 2)).pow(2).mean()
    loss.backward()
    assert m.weight.grad.shape == (1, 2)


def test_utils_data_reachable_after_bare_import():
    assert torch.utils.data.DataLoader.__name__ == "DataLoader"


def test_backends_flags_are_settable():
    cudnn = torch.backends.cudnn
    old = (cudnn.benchmark, cudnn.deterministic, cudnn.enabled)
    try:
        cudnn.benchmark, cudnn.deterministic, cudnn.enabled = True, True, False
        assert (cudnn.benchmark, cudnn.deterministic, cudnn.enabled) == (True, True, False)
    finally:
        cudnn.benchmark, cudnn.deterministic, cudnn.enabled = old
    assert cudnn.is_available() is False and torch.backends.mps.is_available() is False


def test_jit_script_and_trace_return_argument_with_warning():
    m = nn.Linear(2, 2)
    with pytest.warns(UserWarning, match="torch.jit.script"):
        assert torch.jit.script(m) is m
    f = lambda x: x + 1  # noqa: E731
    with pytest.warns(UserWarning, match="torch.jit.trace"):
        assert torch.jit.trace(f, torch.ones(1)) is f
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.jit.ignore(f) is f and torch.jit.ignore(drop=True)(f) is f
        assert torch.jit.is_scripting() is False


@pytest.mark.parametrize("call, name", [(lambda: torch.jit.save(None, "m.pt"), "torch.jit.save"),
                                        (lambda: torch.jit.load("m.pt"), "torch.jit.load"),
                                        (lambda: torch.onnx.export(nn.Linear(1, 1), torch.ones(1), "m.onnx"),
                                         "torch.onnx.export")])
def test_unsupported_functions_name_themselves(call, name):
    with pytest.raises(RuntimeError, match=name.replace(".", r"\.")):
        call()


def test_unknown_jit_onnx_attributes_raise_attribute_error():
    with pytest.raises(AttributeError, match=r"torch\.jit\.ScriptModule"):
        torch.jit.ScriptModule  # noqa: B018
    with pytest.raises(AttributeError, match=r"torch\.onnx\.TrainingMode"):
        torch.onnx.TrainingMode  # noqa: B018
    assert torch.onnx.is_in_onnx_export() is False


# --- Tensor protocols -------------------------------------------------------------------

def test_format_index_and_numpy_integer_indexing():
    t = torch.arange(10.0)
    assert f"{t.sum():.2f}" == "45.00" and f"{torch.tensor(3):>3d}" == "  3"
    assert [10, 20, 30][torch.tensor(2)] == 30
    with pytest.raises(TypeError):
        [1, 2][torch.tensor(1.0)]
    assert t[np.int64(3)].item() == 3.0 and t[np.int32(-1)].item() == 9.0
    assert t[np.array([1, 2])].tolist() == [1.0, 2.0]


def test_array_protocol_dtype_and_copy():
    t = torch.arange(4.0)
    a = np.asarray(t)
    assert a.dtype == np.float32 and np.shares_memory(a, t.numpy())
    assert not np.shares_memory(np.array(t, copy=True), t.numpy())
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="float32"):
        np.asarray(t, dtype=np.float64, copy=False)


# --- multinomial and Generator ------------------------------------------------------------

def test_multinomial_frequencies_follow_weights():
    g = torch.Generator().manual_seed(0)
    draws = torch.multinomial(torch.tensor([1.0, 2.0, 7.0, 0.0]), 20000, replacement=True, generator=g)
    assert draws.dtype == torch.int64 and draws.shape == (20000,)
    freq = np.bincount(draws.numpy(), minlength=4) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.2, 0.7, 0.0], atol=0.015)


def test_multinomial_without_replacement_rows_distinct_and_reproducible():
    w = torch.tensor([[1.0, 1.0, 1.0, 0.0, 5.0], [0.0, 2.0, 2.0, 2.0, 2.0]], dtype=torch.float64)
    a = w.multinomial(4, generator=torch.Generator().manual_seed(3))
    b = torch.multinomial(w, 4, generator=torch.Generator().manual_seed(3))
    assert a.shape == (2, 4) and a.tolist() == b.tolist()
    for row, weights in zip(a.tolist(), w.tolist()):
        assert len(set(row)) == 4 and all(weights[i] > 0 for i in row)


def test_multinomial_uses_global_seed():
    torch.manual_seed(5)
    a = torch.multinomial(torch.ones(6), 3)
    torch.manual_seed(5)
    assert torch.multinomial(torch.ones(6), 3).tolist() == a.tolist()


@pytest.mark.parametrize("w, n, kw, match", [
    ([1.0, 2.0], 3, {}, "without replacement"),
    ([1.0, 0.0, 0.0], 2, {}, "not enough"),
    ([1.0, -1.0], 1, {}, "element < 0"),
    ([float("nan"), 1.0], 1, {}, "nan"),
    ([0.0, 0.0], 1, {"replacement": True}, "sum of probabilities"),
    ([1.0, 2.0], 0, {}, "n_sample <= 0"),
])
def test_multinomial_errors(w, n, kw, match):
    with pytest.raises(RuntimeError, match=match):
        torch.multinomial(torch.tensor(w), n, **kw)


def test_multinomial_rejects_bad_rank_and_int_weights():
    with pytest.raises(RuntimeError, match="1 or 2 dim"):
        torch.multinomial(torch.ones(2, 2, 2), 1)
    with pytest.raises(RuntimeError, match="floating"):
        torch.multinomial(torch.tensor([1, 2]), 1)


def test_generator_drives_randperm_rand_and_dataloader():
    assert torch.randperm(8, generator=torch.Generator().manual_seed(1)).tolist() == \
        torch.randperm(8, generator=torch.Generator().manual_seed(1)).tolist()
    assert torch.rand(3, generator=torch.Generator().manual_seed(2)).tolist() == \
        torch.rand(3, generator=torch.Generator().manual_seed(2)).tolist()
    ds = torch.utils.data.TensorDataset(torch.arange(10))

    def order(seed):
        dl = torch.utils.data.DataLoader(ds, batch_size=10, shuffle=True, generator=torch.Generator().manual_seed(seed))
        return next(iter(dl))[0].tolist()

    assert order(4) == order(4) and sorted(order(4)) == list(range(10))


def test_global_switches_round_trip_and_validate():
    old = torch.get_float32_matmul_precision()
    try:
        torch.set_float32_matmul_precision("high")
        assert torch.get_float32_matmul_precision() == "high"
        with pytest.raises(RuntimeError, match="'fast'"):
            torch.set_float32_matmul_precision("fast")
    finally:
        torch.set_float32_matmul_precision(old)
    try:
        torch.use_deterministic_algorithms(True, warn_only=True)
        assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()
        with pytest.raises(TypeError, match="bool"):
            torch.use_deterministic_algorithms(1)
    finally:
        torch.use_deterministic_algorithms(False)
    assert not torch.are_deterministic_algorithms_enabled()


def test_torch_version_and_cuda_memory_queries():
    from funcgrad import backend  # noqa: PLC0415

    assert torch.version.cuda is None and torch.version.__version__ == torch.__version__
    assert torch.cuda.empty_cache() is None  # training scripts call it at the end of an epoch
    if not backend.cuda_available():  # PyTorch's CPU build reports 0
        assert torch.cuda.memory_allocated() == 0 and torch.cuda.memory_reserved() == 0
    else:
        assert torch.cuda.memory_reserved() >= torch.cuda.memory_allocated() >= 0
