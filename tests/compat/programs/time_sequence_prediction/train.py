"""Learn to continue sine waves: two stacked LSTMCells in float64 trained with L-BFGS.

Structure of pytorch/examples/time_sequence_prediction: ``Sequence`` unrolls the
cells one time step at a time and, given ``future``, feeds its own output back;
``seq.double()``; ``optim.LBFGS(lr=0.8)`` with a closure; predictions of
``future`` further steps under ``torch.no_grad()``.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class Sequence(nn.Module):
    def __init__(self, hidden=51):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        n = input.size(0)
        h_t = torch.zeros(n, self.hidden, dtype=torch.double)
        c_t = torch.zeros(n, self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(n, self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(n, self.hidden, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for _ in range(future):  # continue from the last prediction
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=15, help="steps to run")
    parser.add_argument("--hidden", type=int, default=51)
    parser.add_argument("--future", type=int, default=1000)
    parser.add_argument("--max-iter", type=int, default=20, help="L-BFGS iterations per step")
    parser.add_argument("--line-search", default=None, help="L-BFGS line search (strong_wolfe), none by default")
    opt = parser.parse_args()
    np.random.seed(0)
    torch.manual_seed(0)
    data = torch.load("traindata.pt", weights_only=False)  # a numpy array, not tensors
    input = torch.from_numpy(data[3:, :-1])
    target = torch.from_numpy(data[3:, 1:])
    test_input = torch.from_numpy(data[:3, :-1])
    test_target = torch.from_numpy(data[:3, 1:])
    seq = Sequence(opt.hidden)
    seq.double()
    criterion = nn.MSELoss()
    optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=opt.max_iter, line_search_fn=opt.line_search)
    for i in range(opt.steps):
        print("STEP:", i)

        def closure():
            optimizer.zero_grad()
            out = seq(input)
            loss = criterion(out, target)
            print("loss:", loss.item())
            loss.backward()
            return loss

        optimizer.step(closure)
        with torch.no_grad():
            future = opt.future
            pred = seq(test_input, future=future)
            loss = criterion(pred[:, :-future], test_target)
            print("test loss:", loss.item())
            y = pred.detach().numpy()
        np.save(f"predict{i}.npy", y)
