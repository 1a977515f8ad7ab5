"""``python -m funcgrad.compat SCRIPT.py [args]`` runs unmodified PyTorch programs (in a subprocess)."""

import os
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CLASSIFIER = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.backends.cudnn.benchmark = True
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


centers = torch.randn(3, 4) * 3
labels = torch.randint(0, 3, (240,))
data = centers[labels] + torch.randn(240, 4) * 0.5
loader = DataLoader(TensorDataset(data, labels), batch_size=32, shuffle=True)
model = Net().to(device)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item() * len(x)
    print(f"epoch {epoch} loss {total / len(loader.dataset):.4f}")
model.eval()
with torch.no_grad():
    acc = (model(data).argmax(dim=1) == labels).float().mean()
print(f"accuracy {acc:.3f}")
"""

REGRESSION = """
import argparse
import sys

import torch
from torch import nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("name")
    args = parser.parse_args()
    print("argv", sys.argv[1:], "name", args.name)
    torch.manual_seed(1)
    x = torch.linspace(-1, 1, 64).unsqueeze(1)
    y = 3 * x - 0.5 + 0.01 * torch.randn(64, 1)
    model = nn.Sequential(nn.Linear(1, 1))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.5f}")
    torch.save(model.state_dict(), args.name)
    model.load_state_dict(torch.load(args.name))


if __name__ == "__main__":
    main()
"""

RAISES = """
import torch

def forward(x):
    return x @ torch.ones(5, 2)

forward(torch.ones(2, 3))
"""


def launch(tmp_path, source, *args, name="script.py"):
    script = tmp_path / name
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "funcgrad.compat", str(script), *args], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120)


def losses(stdout):
    return [float(v) for v in re.findall(r"loss (\S+)", stdout)]


def test_classifier_with_dataloader_trains(tmp_path):
    r = launch(tmp_path, CLASSIFIER)
    assert r.returncode == 0, r.stderr
    ls = losses(r.stdout)
    assert len(ls) == 5 and ls[-1] < 0.5 * ls[0], r.stdout
    assert float(re.search(r"accuracy (\S+)", r.stdout).group(1)) > 0.8


def test_regression_gets_argv_and_trains(tmp_path):
    r = launch(tmp_path, REGRESSION, "--epochs", "40", "--lr", "0.05", "model.pt")
    assert r.returncode == 0, r.stderr
    assert "argv ['--epochs', '40', '--lr', '0.05', 'model.pt'] name model.pt" in r.stdout
    ls = losses(r.stdout)
    assert len(ls) == 40 and ls[-1] < 0.25 * ls[0]
    assert (tmp_path / "model.pt").is_file()


def test_argparse_error_exits_2(tmp_path):
    r = launch(tmp_path, REGRESSION, "--epochs", "x", "m.pt")
    assert r.returncode == 2
    assert "invalid int value: 'x'" in r.stderr


def test_uncaught_exception_exits_1_with_traceback(tmp_path):
    r = launch(tmp_path, RAISES, name="bad.py")
    assert r.returncode == 1
    assert "Traceback (most recent call last)" in r.stderr
    assert 'bad.py", line 5, in forward' in r.stderr
    frames = [ln for ln in r.stderr.splitlines() if ln.startswith('  File "')]
    assert frames[0].endswith('bad.py", line 7, in <module>')  # as `python bad.py`: no launcher frames
    assert not any("runpy" in f or "launcher.py" in f for f in frames)
    assert r.stderr.strip().splitlines()[-1].startswith("RuntimeError")


def test_sys_exit_code_and_main_name(tmp_path):
    r = launch(tmp_path, "import sys\nassert __name__ == '__main__'\nsys.exit(7)\n")
    assert r.returncode == 7, r.stderr


def test_script_folder_first_on_path(tmp_path):
    (tmp_path / "helper_mod_fg.py").write_text("import torch\nVALUE = torch.ones(2).sum().item()\n")
    (tmp_path / "main.py").write_text(
        "import os, sys\nimport helper_mod_fg\nprint(helper_mod_fg.VALUE, sys.path[0] == os.path.dirname(__file__))\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = subprocess.run([sys.executable, "-m", "funcgrad.compat", str(tmp_path / "main.py")], capture_output=True,
                       text=True, cwd=elsewhere, env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2.0", "True"]


def test_missing_script_is_one_line_exit_2(tmp_path):
    r = subprocess.run([sys.executable, "-m", "funcgrad.compat", str(tmp_path / "nope.py")], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "nope.py" in r.stderr


def test_no_arguments_prints_usage_exit_2():
    r = subprocess.run([sys.executable, "-m", "funcgrad.compat"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert r.returncode == 2 and "usage:" in r.stderr


@pytest.mark.parametrize("stmt, missing", [("import torch.distributed", "torch.distributed"),
                                           ("import torchaudio", "torchaudio"),
                                           ("import torchtext", "torchtext"),
                                           ("import torchvision.ops", "torchvision.ops")])
def test_unprovided_modules_name_themselves(tmp_path, stmt, missing):
    r = launch(tmp_path, stmt + "\n")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError") and repr(missing) in last


VISION = """
import sys
import torch
import torchvision
import torchvision.transforms as transforms
import torchvision.transforms.functional as TF
from torchvision import datasets
from torchvision.datasets import FakeData
from torchvision.utils import save_image
from torch.utils.data import DataLoader

assert torchvision.transforms is transforms is sys.modules["funcgrad.compat.vision.transforms"]
assert datasets.FakeData is FakeData and TF.to_tensor is transforms.functional.to_tensor
assert type(torch.ones(1)).__module__.startswith("funcgrad.compat")
tf = transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor(),
                         transforms.Normalize((0.5,), (0.5,))])
loader = DataLoader(FakeData(size=8, image_size=(1, 6, 6), num_classes=3, transform=tf), batch_size=4)
net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(36, 3))
for x, y in loader:
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
save_image(x * 0.5 + 0.5, "grid.png", nrow=2)
print("batch", tuple(x.shape), y.dtype, f"loss {loss.item():.3f}", torchvision.__version__)
"""


def test_torchvision_resolves_to_compat_vision(tmp_path):
    r = launch(tmp_path, VISION)
    assert r.returncode == 0, r.stderr
    assert "batch (4, 1, 6, 6) torch.int64 loss" in r.stdout
    assert (tmp_path / "grid.png").is_file()


WORKERS = """
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        assert type(torch.ones(1)).__module__.startswith("funcgrad.compat"), "worker imported the real torch"
        return torch.tensor([float(i) ** 2])


if __name__ == "__main__":
    import sys
    loader = DataLoader(Squares(), batch_size=4, num_workers=2, multiprocessing_context=sys.argv[1])
    print([batch.sum().item() for batch in loader])
"""


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dataloader_workers_see_the_alias(tmp_path, context):
    r = launch(tmp_path, WORKERS, context)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[14.0, 126.0]"
