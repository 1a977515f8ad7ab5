"""Classify variable-length token sequences with a transformer encoder or a packed LSTM.

The task: which of the tokens 1..K occurs most often in the sequence. Sequences
are padded with pad_sequence in a DataLoader collate_fn. ``--model transformer``
masks the padding with src_key_padding_mask and leaves it out of the mean
pooling; ``--model lstm`` packs the batch with pack_padded_sequence and
classifies from the last hidden state. Writes the test accuracy to --out as JSON.
"""
import argparse
import json
import math

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader, Dataset

PAD = 0


class MajorityDataset(Dataset):
    def __init__(self, n, num_classes, min_len=4, max_len=16, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            length = int(torch.randint(min_len, max_len + 1, (1,), generator=g))
            label = int(torch.randint(0, num_classes, (1,), generator=g))
            seq = torch.randint(1, num_classes + 1, (length,), generator=g)
            seq[torch.randperm(length, generator=g)[: length // 2 + 1]] = label + 1  # a clear majority
            self.items.append((seq, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    seqs, labels = zip(*batch)
    x = pad_sequence(seqs, batch_first=True, padding_value=PAD)
    return x, torch.tensor(labels)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(pos * div)
        pe[0, :, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class Classifier(nn.Module):
    def __init__(self, vocab, num_classes, d_model=32, nhead=4, num_layers=2, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=num_layers)
        self.fc = nn.Linear(d_model, num_classes)

    def forward(self, x):
        pad_mask = x == PAD  # True where there is padding
        h = self.encoder(self.pos(self.embed(x)), src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1.0)
        return self.fc(pooled)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab, num_classes, embed_dim=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, x):
        lengths = (x != PAD).sum(dim=1).cpu()
        packed = pack_padded_sequence(self.embed(x), lengths, batch_first=True, enforce_sorted=False)
        _, (h_n, _) = self.lstm(packed)
        return self.fc(torch.cat([h_n[-2], h_n[-1]], dim=1))  # last forward and backward states


def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(dim=1) == y).sum().item()
            total += y.size(0)
    return correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["transformer", "lstm"], default="transformer")
    parser.add_argument("--classes", type=int, default=4)
    parser.add_argument("--train-size", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--out", default="metrics.json")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(MajorityDataset(args.train_size, args.classes, seed=1), batch_size=32, shuffle=True,
                              collate_fn=collate)
    test_loader = DataLoader(MajorityDataset(200, args.classes, seed=2), batch_size=64, collate_fn=collate)
    net = Classifier if args.model == "transformer" else LSTMClassifier
    model = net(args.classes + 1, args.classes).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    criterion = nn.CrossEntropyLoss()
    start = accuracy(model, test_loader, device)
    print(f"test accuracy before training {start:.3f}")
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item() * y.size(0)
        scheduler.step()
        print(f"epoch {epoch} loss {running / len(train_loader.dataset):.4f} lr {scheduler.get_last_lr()[0]:.5f}")
    acc = accuracy(model, test_loader, device)
    print(f"test accuracy {acc:.3f}")
    with open(args.out, "w") as f:
        json.dump({"accuracy_before": start, "accuracy": acc, "chance": 1 / args.classes}, f)


if __name__ == "__main__":
    main()
