"""torch.serialization.set/get_default_mmap_options: MAP_PRIVATE copies on write, MAP_SHARED writes the file."""

import mmap
import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import serialization


def test_private_then_shared(tmp_path):
    path = tmp_path / "t.pt"
    torch.save({"w": torch.arange(4.0)}, path)
    assert serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    w = torch.load(path, mmap=True)["w"]
    w[0] = 10.0
    assert float(torch.load(path)["w"][0]) == 0.0  # copy on write: the file is unchanged
    with serialization.set_default_mmap_options(mmap.MAP_SHARED):
        assert serialization.get_default_mmap_options() == mmap.MAP_SHARED
        w = torch.load(path, mmap=True)["w"]
        w[1] = 7.0
        del w
    assert serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    np.testing.assert_array_equal(torch.load(path)["w"].numpy(), [0.0, 7.0, 2.0, 3.0])


def test_errors_and_warning_class():
    with pytest.raises(ValueError, match="expected mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got 5"):
        serialization.set_default_mmap_options(5)
    assert issubclass(serialization.SourceChangeWarning, Warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=serialization.SourceChangeWarning)
        warnings.warn("changed", serialization.SourceChangeWarning)
