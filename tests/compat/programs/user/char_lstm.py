"""A character-level LSTM language model on generated text, as a PyTorch user writes one.

Trains on random windows of a text made of short generated sentences, prints the
loss per epoch and the held-out loss, saves the state_dict, reloads it and
samples a line with torch.multinomial.
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

WORDS = {"who": ["anna", "ben", "the cat", "my dog"],
         "does": ["eats", "sees", "wants", "draws"],
         "what": ["an apple", "the moon", "a fish", "some bread"]}


def make_text(n, seed):
    rng = random.Random(seed)
    return " ".join(f"{rng.choice(WORDS['who'])} {rng.choice(WORDS['does'])} {rng.choice(WORDS['what'])}."
                    for _ in range(n))


class CharLSTM(nn.Module):
    def __init__(self, vocab_size, embed_dim=16, hidden_dim=64, num_layers=1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, num_layers=num_layers, batch_first=True)
        self.head = nn.Linear(hidden_dim, vocab_size)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


def batches(data, seq_len, batch_size, steps):
    for _ in range(steps):
        starts = torch.randint(0, len(data) - seq_len - 1, (batch_size,))
        x = torch.stack([data[s:s + seq_len] for s in starts.tolist()])
        y = torch.stack([data[s + 1:s + seq_len + 1] for s in starts.tolist()])
        yield x, y


@torch.no_grad()
def sample(model, stoi, itos, start, length, device):
    model.eval()
    x = torch.tensor([[stoi[c] for c in start]], device=device)
    logits, state = model(x)
    out = list(start)
    for _ in range(length):
        probs = F.softmax(logits[0, -1], dim=-1)
        idx = torch.multinomial(probs, num_samples=1).item()
        out.append(itos[idx])
        logits, state = model(torch.tensor([[idx]], device=device), state)
    return "".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=50, help="batches per epoch")
    parser.add_argument("--seq-len", type=int, default=32)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_text, val_text = make_text(400, seed=1), make_text(40, seed=2)
    chars = sorted(set(train_text + val_text))
    stoi = {c: i for i, c in enumerate(chars)}
    itos = {i: c for c, i in stoi.items()}
    train_data = torch.tensor([stoi[c] for c in train_text], dtype=torch.long)
    val_data = torch.tensor([stoi[c] for c in val_text], dtype=torch.long)

    model = CharLSTM(len(chars)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    def evaluate(net):
        net.eval()
        with torch.no_grad():
            x, y = val_data[:-1].unsqueeze(0).to(device), val_data[1:].unsqueeze(0).to(device)
            logits, _ = net(x)
            return criterion(logits.view(-1, len(chars)), y.view(-1)).item()

    print(f"vocab {len(chars)} val loss {evaluate(model):.4f}")
    for epoch in range(1, args.epochs + 1):
        model.train()
        total = 0.0
        for x, y in batches(train_data, args.seq_len, args.batch_size, args.steps):
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            logits, _ = model(x)
            loss = criterion(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} train loss {total / args.steps:.4f} val loss {evaluate(model):.4f}")

    torch.save(model.state_dict(), "char_lstm.pt")
    restored = CharLSTM(len(chars)).to(device)
    restored.load_state_dict(torch.load("char_lstm.pt", map_location=device))
    print(f"restored val loss {evaluate(restored):.4f}")
    print("sample:", sample(restored, stoi, itos, "anna ", 60, device))


if __name__ == "__main__":
    main()
