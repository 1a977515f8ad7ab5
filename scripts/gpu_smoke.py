"""GPU smoke check (run on a machine with cupy and a CUDA device; see scripts/gpu_check.sh).

1. funcgrad.compat: a LeNet-style model trained with ``.to("cuda")`` gives the same
   losses as on the CPU (float32 tolerance), and its state_dict round-trips to CPU.
2. Timing of one MLP training step (784-2048-2048-10, batch 1024, float32) through the
   functional API on cuda vs cpu, and vs PyTorch on cuda when installed, as same-run ratios.
"""

from __future__ import annotations

import os
import time

import numpy as np


def compat_losses(device, steps=20):
    import funcgrad.compat as torch
    import funcgrad.compat.nn as nn
    import funcgrad.compat.nn.functional as F

    torch.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.bn = nn.BatchNorm2d(6)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 4 * 4, 64)
            self.fc2 = nn.Linear(64, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))

    model = Net().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((32, 1, 28, 28)).astype(np.float32)).to(device)
    y = torch.tensor(rng.integers(0, 10, 32)).to(device)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    sd = {k: v.cpu() for k, v in model.state_dict().items()}
    assert all(v.device.type == "cpu" for v in sd.values())
    assert next(model.parameters()).device.type == str(device).split(":")[0]
    return np.array(losses)


def seconds_per_call(run, reps, warmup=3):
    """Mean wall time of ``run()`` (which ends by reading a value back, so device work is finished)."""
    for _ in range(warmup):
        run()
    t = time.perf_counter()
    for _ in range(reps):
        run()
    return (time.perf_counter() - t) / reps


def mlp_step_time(device, reps=20):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    rng = np.random.default_rng(0)
    sizes = [784, 2048, 2048, 10]
    params = [(fg.asarray(rng.standard_normal((a, b)).astype(np.float32) * 0.02, device=device),
               fg.asarray(np.zeros(b, np.float32), device=device)) for a, b in zip(sizes, sizes[1:])]
    x = fg.asarray(rng.standard_normal((1024, 784)).astype(np.float32), device=device)
    y = fg.asarray(rng.integers(0, 10, 1024), device=device)

    def loss(params):
        h = x
        for i, (w, b) in enumerate(params):
            h = h @ w + b
            if i < len(params) - 1:
                h = fnp.maximum(h, 0)
        lse = fnp.log(fnp.sum(fnp.exp(h - fnp.max(h, axis=1, keepdims=True)), axis=1)) + fnp.max(h, axis=1)
        return fnp.mean(lse - fnp.take_along_axis(h, y[:, None], axis=1)[:, 0])

    step = fg.value_and_grad(loss)

    def run():
        v, g = step(params)
        return float(v)

    return seconds_per_call(run, reps)


def torch_mlp_step_time(reps=20):
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    dev = "cuda"
    model = torch.nn.Sequential(torch.nn.Linear(784, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 2048),
                                torch.nn.ReLU(), torch.nn.Linear(2048, 10)).to(dev)
    x = torch.randn(1024, 784, device=dev)
    y = torch.randint(0, 10, (1024,), device=dev)

    def run():
        model.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss.item()

    return seconds_per_call(run, reps)


def main():
    dev = os.environ.get("FUNCGRAD_SMOKE_DEVICE", "cuda")  # "standin" checks this script without a GPU
    t_cpu, t_gpu, t_torch = mlp_step_time("cpu", reps=3), mlp_step_time(dev), torch_mlp_step_time()
    print(f"MLP step (784-2048-2048-10, batch 1024, f32): funcgrad cpu {t_cpu * 1e3:.2f} ms, "
          f"funcgrad {dev} {t_gpu * 1e3:.2f} ms (cpu/{dev} {t_cpu / t_gpu:.1f}x)")
    if t_torch is not None:
        print(f"  torch cuda {t_torch * 1e3:.2f} ms; funcgrad cuda / torch cuda = {t_gpu / t_torch:.2f}x")
    cpu, gpu = compat_losses("cpu"), compat_losses(dev)
    print("compat LeNet losses cpu :", np.round(cpu[[0, 9, 19]], 5))
    print(f"compat LeNet losses {dev}:", np.round(gpu[[0, 9, 19]], 5))
    print(f"max |cpu - {dev}| loss difference:", float(np.max(np.abs(cpu - gpu))))
    assert np.allclose(cpu, gpu, rtol=1e-3, atol=1e-4), (cpu, gpu)
    assert gpu[-1] < gpu[0]
    print("GPU SMOKE OK")

if __name__ == "__main__":
    main()
