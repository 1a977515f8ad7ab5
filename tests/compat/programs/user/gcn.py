"""Semi-supervised node classification with a graph convolutional network (Kipf & Welling), written
the way PyTorch Geometric-free GCN code is: the symmetric-normalised adjacency D^-1/2 (A + I) D^-1/2
is a sparse COO tensor, each layer is ``torch.sparse.mm(adj, X @ W)``.

The graph is a stochastic block model (communities = classes; dense inside, sparse across); node
features are noisy class indicators; a few labelled nodes per class train the model, the rest test it.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def block_model(n_per, classes, p_in, p_out, gen):
    n = n_per * classes
    labels = torch.arange(classes).repeat_interleave(n_per)
    same = labels[:, None] == labels[None, :]
    prob = torch.where(same, torch.full((n, n), p_in), torch.full((n, n), p_out))
    upper = torch.triu(torch.rand(n, n, generator=gen) < prob, diagonal=1)
    edges = upper.nonzero().t()
    edges = torch.cat([edges, edges.flip(0)], 1)  # undirected
    return n, labels, edges


def normalised_adjacency(n, edges):
    loops = torch.arange(n).repeat(2, 1)
    idx = torch.cat([edges, loops], 1)
    deg = torch.zeros(n).index_add_(0, idx[0], torch.ones(idx.shape[1]))
    w = deg[idx[0]].rsqrt() * deg[idx[1]].rsqrt()
    return torch.sparse_coo_tensor(idx, w, (n, n)).coalesce()


class GCN(nn.Module):
    def __init__(self, d_in, hidden, classes, dropout=0.5):
        super().__init__()
        self.w1 = nn.Linear(d_in, hidden)
        self.w2 = nn.Linear(hidden, classes)
        self.dropout = dropout

    def forward(self, x, adj):
        h = F.relu(torch.sparse.mm(adj, self.w1(x)))
        h = F.dropout(h, self.dropout, self.training)
        return torch.sparse.mm(adj, self.w2(h))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    classes, n_per = 3, 40
    n, labels, edges = block_model(n_per, classes, 0.15, 0.01, gen)
    adj = normalised_adjacency(n, edges)
    print(f"graph: {n} nodes, {edges.shape[1]} directed edges, adjacency nnz {adj._nnz()}, "
          f"layout {adj.layout}, is_sparse {adj.is_sparse}")
    x = F.one_hot(labels, classes).float() + 1.5 * torch.randn(n, classes, generator=gen)
    train = torch.zeros(n, dtype=torch.bool)
    for c in range(classes):
        train[c * n_per:c * n_per + 4] = True
    test = ~train

    model = GCN(classes, 16, classes)
    opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)

    def accuracy(mask):
        model.eval()
        with torch.no_grad():
            pred = model(x, adj).argmax(1)
        model.train()
        return (pred[mask] == labels[mask]).float().mean().item()

    feature_only = ((x.argmax(1) == labels)[test]).float().mean().item()
    print(f"before: test accuracy {accuracy(test):.3f} (features alone: {feature_only:.3f})")
    for epoch in range(args.epochs):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, adj)[train], labels[train])
        loss.backward()
        opt.step()
        if epoch % 25 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch} loss {loss.item():.4f}")
    print(f"after: test accuracy {accuracy(test):.3f}")


if __name__ == "__main__":
    main()
