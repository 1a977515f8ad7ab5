"""A character-level LSTM language model: funcgrad.nn's LSTM runs its time loop with one
``fg.lax.scan``, the training step is ``fg.jit(fg.value_and_grad(...))`` with Adam, and text is
sampled by a second scan that feeds each drawn character back in.

    python examples/char_rnn.py
"""

import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import nn

TEXT = (
    "the quick brown fox jumps over the lazy dog. "
    "a journey of a thousand miles begins with a single step. "
    "to be or not to be, that is the question. "
    "all that glitters is not gold. "
)


class CharLSTM(nn.Module):
    embed: nn.Embedding
    lstm: nn.LSTM
    head: nn.Linear

    def __init__(self, vocab, embed_dim, hidden, *, key):
        k1, k2, k3 = fg.random.split(key, 3)
        self.embed = nn.Embedding(vocab, embed_dim, key=k1)
        self.lstm = nn.LSTM(embed_dim, hidden, key=k2)
        self.head = nn.Linear(hidden, vocab, key=k3)

    def __call__(self, ids, state=None):
        """ids (T, batch) -> logits (T, batch, vocab) and the final (h, c)."""
        out, state = self.lstm(self.embed(ids), state)
        return self.head(out), state


def loss_fn(model, inputs, targets):
    logits, _ = model(inputs)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def batches(ids, seq_len, batch, rng):
    """Random windows of the text: inputs and the next characters, shape (seq_len, batch)."""
    starts = rng.integers(0, len(ids) - seq_len - 1, size=batch)
    window = np.stack([ids[s:s + seq_len + 1] for s in starts], axis=1)
    return fnp.asarray(window[:-1]), fnp.asarray(window[1:])


def sample(model, first, key, length=80, temperature=0.5):
    """``length`` characters after ``first``: a scan whose carry is the LSTM state, the last character
    and the random key; each step splits the key and draws the next character from
    softmax(logits / temperature)."""
    def step(carry, _):
        state, char, key = carry
        key, sub = fg.random.split(key)
        logits, state = model(char.reshape(1, 1), state)
        nxt = fg.random.categorical(sub, logits[0, 0] / temperature).astype(char.dtype)
        return (state, nxt, key), nxt

    state = model.lstm.cell.initial_state((1,))  # (h, c), zeros
    _, chars = fg.lax.scan(step, (state, fnp.asarray(first), key), None, length=length)
    return chars


def main(steps=300, seq_len=32, batch=16, hidden=64, lr=1e-2, seed=0, verbose=True):
    chars = sorted(set(TEXT))
    ids = np.array([chars.index(c) for c in TEXT], dtype=np.int64)
    model = CharLSTM(len(chars), 16, hidden, key=fg.random.key(seed))
    opt = fg.optim.adam(lr)
    opt_state = opt.init(model)

    @fg.jit
    def train_step(model, opt_state, inputs, targets):
        loss, grads = fg.value_and_grad(loss_fn)(model, inputs, targets)
        updates, opt_state = opt.update(grads, opt_state, model)
        return fg.optim.apply_updates(model, updates), opt_state, loss

    rng = np.random.default_rng(seed)
    losses = []
    start = time.perf_counter()
    for i in range(steps):
        model, opt_state, loss = train_step(model, opt_state, *batches(ids, seq_len, batch, rng))
        losses.append(float(loss))
        if verbose and (i % 100 == 0 or i == steps - 1):
            print(f"step {i:4d}  loss {losses[-1]:.3f}")
    elapsed = time.perf_counter() - start
    sampler = fg.jit(sample, static_argnames="length")
    text = "".join(chars[int(c)] for c in sampler(model, chars.index("t"), fg.random.key(seed + 1)))
    if verbose:
        print(f"{steps} steps in {elapsed:.1f} s ({train_step.trace_count} trace of the step); "
              f"loss {losses[0]:.3f} -> {losses[-1]:.3f} (uniform: {np.log(len(chars)):.3f})")
        print(f"sample: t{text}")
    return losses, text


if __name__ == "__main__":
    main()
