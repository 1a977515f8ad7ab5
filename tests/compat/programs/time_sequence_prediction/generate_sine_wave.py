"""Write ``traindata.pt``: N sine waves of length L with random phase shifts (float64 numpy array)."""
import argparse

import numpy as np
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--waves", type=int, default=100, help="number of sequences")
parser.add_argument("--length", type=int, default=1000, help="samples per sequence")
parser.add_argument("--period", type=int, default=20, help="samples per radian")
args = parser.parse_args()

np.random.seed(2)
T, L, N = args.period, args.length, args.waves
x = np.empty((N, L), "int64")
x[:] = np.arange(L) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")
with open("traindata.pt", "wb") as f:
    torch.save(data, f)
