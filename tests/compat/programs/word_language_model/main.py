"""Train a word-level language model on DATA/{train,valid,test}.txt; save the best model to --save.

Structure of pytorch/examples/word_language_model/main.py: batchify into columns,
truncated back-propagation through time (``repackage_hidden``), gradient
clipping, a hand-written SGD step, lr / 4 when the validation loss stops
improving, the whole model pickled with ``torch.save(model, f)``.
"""
import argparse
import math
import time

import torch
import torch.nn as nn

import data
import model

parser = argparse.ArgumentParser(description="RNN/LSTM/GRU/Transformer language model")
parser.add_argument("--data", type=str, default="./data/wikitext-2", help="location of the data corpus")
parser.add_argument("--model", type=str, default="LSTM", help="RNN_TANH, RNN_RELU, LSTM, GRU or Transformer")
parser.add_argument("--emsize", type=int, default=200, help="size of word embeddings")
parser.add_argument("--nhid", type=int, default=200, help="number of hidden units per layer")
parser.add_argument("--nlayers", type=int, default=2, help="number of layers")
parser.add_argument("--lr", type=float, default=20, help="initial learning rate")
parser.add_argument("--clip", type=float, default=0.25, help="gradient clipping")
parser.add_argument("--epochs", type=int, default=40, help="upper epoch limit")
parser.add_argument("--batch_size", type=int, default=20, metavar="N", help="batch size")
parser.add_argument("--bptt", type=int, default=35, help="sequence length")
parser.add_argument("--dropout", type=float, default=0.2, help="dropout applied to layers (0 = no dropout)")
parser.add_argument("--tied", action="store_true", help="tie the word embedding and softmax weights")
parser.add_argument("--seed", type=int, default=1111, help="random seed")
parser.add_argument("--cuda", action="store_true", default=False, help="use CUDA")
parser.add_argument("--log-interval", type=int, default=200, metavar="N", help="report interval")
parser.add_argument("--save", type=str, default="model.pt", help="path to save the final model")
parser.add_argument("--nhead", type=int, default=2, help="heads in the transformer model")
parser.add_argument("--dry-run", action="store_true", help="verify the code and the model")
args = parser.parse_args()

torch.manual_seed(args.seed)
device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")

corpus = data.Corpus(args.data)


def batchify(data, bsz):
    """Cut the token stream into bsz columns (the last partial row is dropped)."""
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)


eval_batch_size = 10
train_data = batchify(corpus.train, args.batch_size)
val_data = batchify(corpus.valid, eval_batch_size)
test_data = batchify(corpus.test, eval_batch_size)

ntokens = len(corpus.dictionary)
if args.model == "Transformer":
    model = model.TransformerModel(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout).to(device)
else:
    model = model.RNNModel(args.model, ntokens, args.emsize, args.nhid, args.nlayers, args.dropout,
                           args.tied).to(device)
criterion = nn.NLLLoss()


def repackage_hidden(h):
    """Detach hidden states from their history (truncated BPTT)."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(args.bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def evaluate(data_source):
    model.eval()
    total_loss = 0.
    if args.model != "Transformer":
        hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args.bptt):
            data, targets = get_batch(data_source, i)
            if args.model == "Transformer":
                output = model(data)
                output = output.view(-1, ntokens)
            else:
                output, hidden = model(data, hidden)
                hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train():
    model.train()
    total_loss = 0.
    start_time = time.time()
    if args.model != "Transformer":
        hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        if args.model == "Transformer":
            output = model(data)
            output = output.view(-1, ntokens)
        else:
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
        if batch % args.log_interval == 0 and batch > 0:
            cur_loss = total_loss / args.log_interval
            elapsed = time.time() - start_time
            print("| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | ms/batch {:5.2f} | loss {:5.2f} | ppl {:8.2f}"
                  .format(epoch, batch, len(train_data) // args.bptt, lr, elapsed * 1000 / args.log_interval,
                          cur_loss, math.exp(cur_loss)))
            total_loss = 0
            start_time = time.time()
        if args.dry_run:
            break


lr = args.lr
best_val_loss = None
print("| start | valid loss {:5.2f} | vocabulary {}".format(evaluate(val_data), ntokens))
try:
    for epoch in range(1, args.epochs + 1):
        epoch_start_time = time.time()
        train()
        val_loss = evaluate(val_data)
        print("-" * 89)
        print("| end of epoch {:3d} | time: {:5.2f}s | valid loss {:5.2f} | valid ppl {:8.2f}"
              .format(epoch, (time.time() - epoch_start_time), val_loss, math.exp(val_loss)))
        print("-" * 89)
        if not best_val_loss or val_loss < best_val_loss:
            with open(args.save, "wb") as f:
                torch.save(model, f)
            best_val_loss = val_loss
        else:
            lr /= 4.0  # no improvement on the validation set: anneal
except KeyboardInterrupt:
    print("-" * 89)
    print("Exiting from training early")

with open(args.save, "rb") as f:
    model = torch.load(f, weights_only=False)
    if args.model in ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"]:
        model.rnn.flatten_parameters()  # contiguous weights again after loading

test_loss = evaluate(test_data)
print("=" * 89)
print("| End of training | test loss {:5.2f} | test ppl {:8.2f}".format(test_loss, math.exp(test_loss)))
print("=" * 89)
