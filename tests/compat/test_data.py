"""compat utils.data: datasets, samplers, collation, DataLoader (also with worker processes)."""

import os
from collections import namedtuple

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.utils.data as Data


class Squares(Data.Dataset):
    def __init__(self, n=10, fail_at=None, die_at=None):
        self.n, self.fail_at, self.die_at = n, fail_at, die_at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            raise KeyError(f"bad index {i}")
        if i == self.die_at:
            os._exit(3)
        return {"x": torch.tensor([float(i)]), "y": i * i, "w": 0.5, "name": f"s{i}"}


def _seeded_worker(worker_id):
    np.random.seed(worker_id)


class WorkerIds(Data.Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = Data.get_worker_info()
        return (i, -1 if info is None else info.id, float(np.random.randint(0, 1000)))


def test_tensor_dataset_old_keywords_and_loader_batches():
    x, y = torch.linspace(1, 10, 10), torch.linspace(10, 1, 10)
    with pytest.warns(FutureWarning, match="deprecated"):
        ds = Data.TensorDataset(data_tensor=x, target_tensor=y)
    assert len(ds) == 10 and ds[3][0].item() == 4.0
    loader = Data.DataLoader(dataset=ds, batch_size=4, shuffle=False)
    batches = list(loader)
    assert len(loader) == 3 and [b[0].shape[0] for b in batches] == [4, 4, 2]
    assert isinstance(batches[0], list)  # tuples collate into a list, as PyTorch
    for step, (batch_x, batch_y) in enumerate(loader):
        np.testing.assert_array_equal(batch_x.numpy() + batch_y.numpy(), 11)
    assert len(Data.DataLoader(ds, batch_size=4, drop_last=True)) == 2
    with pytest.raises(ValueError, match="Size mismatch"):
        Data.TensorDataset(torch.ones(3), torch.ones(4))


def test_shuffle_is_a_permutation_and_reproducible_with_a_generator():
    ds = Data.TensorDataset(torch.arange(20))

    def order(seed):
        g = torch.Generator().manual_seed(seed)
        return torch.cat([b[0] for b in Data.DataLoader(ds, batch_size=6, shuffle=True, generator=g)]).tolist()

    a = order(1)
    assert sorted(a) == list(range(20)) and a != list(range(20))
    assert order(1) == a and order(2) != a
    torch.manual_seed(5)
    b = [x[0].tolist() for x in Data.DataLoader(ds, batch_size=20, shuffle=True)]
    torch.manual_seed(5)
    assert [x[0].tolist() for x in Data.DataLoader(ds, batch_size=20, shuffle=True)] == b


def test_collate_dicts_numbers_strings_namedtuples():
    batch = next(iter(Data.DataLoader(Squares(), batch_size=3)))
    assert batch["x"].shape == (3, 1) and batch["y"].dtype == torch.int64 and batch["y"].tolist() == [0, 1, 4]
    assert batch["w"].dtype == torch.float64 and batch["name"] == ["s0", "s1", "s2"]
    P = namedtuple("P", "a b")
    out = Data.default_collate([P(1, np.ones(2)), P(2, np.zeros(2))])
    assert isinstance(out, P) and out.a.tolist() == [1, 2] and out.b.shape == (2, 2)
    nested = Data.default_collate([([1.0, 2.0], {"k": True})] * 2)
    assert nested[0][0].dtype == torch.float64 and nested[1]["k"].dtype == torch.bool
    with pytest.raises(RuntimeError, match="equal size"):
        Data.default_collate([[1, 2], [1]])
    custom = Data.DataLoader(Squares(4), batch_size=2, collate_fn=lambda b: len(b))
    assert list(custom) == [2, 2]


def test_samplers_and_batch_sampler():
    ds = Data.TensorDataset(torch.arange(10))
    loader = Data.DataLoader(ds, sampler=Data.SubsetRandomSampler([1, 3, 5]), batch_size=2)
    assert sorted(torch.cat([b[0] for b in loader]).tolist()) == [1, 3, 5]
    bs = Data.BatchSampler(Data.SequentialSampler(ds), 4, drop_last=False)
    loader = Data.DataLoader(ds, batch_sampler=bs)
    assert [b[0].tolist() for b in loader][-1] == [8, 9]
    with pytest.raises(ValueError, match="mutually exclusive"):
        Data.DataLoader(ds, batch_sampler=bs, batch_size=3)
    with pytest.raises(ValueError, match="mutually exclusive with shuffle"):
        Data.DataLoader(ds, sampler=Data.SequentialSampler(ds), shuffle=True)
    unbatched = list(Data.DataLoader(ds, batch_size=None))
    assert len(unbatched) == 10 and unbatched[2][0].item() == 2
    rs = list(Data.RandomSampler(ds, replacement=True, num_samples=30))
    assert len(rs) == 30 and all(0 <= i < 10 for i in rs)


def test_random_split_subset_concat():
    ds = Data.TensorDataset(torch.arange(10))
    a, b = Data.random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
    got = sorted([a[i][0].item() for i in range(7)] + [b[i][0].item() for i in range(3)])
    assert got == list(range(10))
    c, d = Data.random_split(ds, [0.5, 0.5])
    assert len(c) == len(d) == 5
    with pytest.raises(ValueError, match="Sum of input lengths"):
        Data.random_split(ds, [3, 3])
    cat = Data.ConcatDataset([Data.Subset(ds, [0, 1]), ds])
    assert len(cat) == 12 and cat[2][0].item() == 0 and cat[-1][0].item() == 9


def test_worker_processes_keep_order_and_run_worker_init_fn():
    loader = Data.DataLoader(WorkerIds(), batch_size=2, num_workers=2, worker_init_fn=_seeded_worker,
                             pin_memory=True)
    batches = list(loader)
    idx, wid, r = zip(*[(b[0].tolist(), b[1].tolist(), b[2].tolist()) for b in batches])
    assert sum(idx, []) == list(range(6))
    assert {w for ws in wid for w in ws} == {0, 1}
    assert len(set(sum(r, []))) > 1
    it = iter(Data.DataLoader(Data.TensorDataset(torch.arange(6.0)), batch_size=3, num_workers=2))
    first = it.next()
    assert first[0].tolist() == [0.0, 1.0, 2.0] and next(it)[0].tolist() == [3.0, 4.0, 5.0]
    assert Data.get_worker_info() is None


def test_worker_exception_is_reraised_in_main_process():
    loader = Data.DataLoader(Squares(8, fail_at=5), batch_size=2, num_workers=2)
    with pytest.raises(KeyError, match=r"Caught KeyError in DataLoader worker process 0(.|\n)*bad index 5"):
        list(loader)


def test_dead_worker_raises_instead_of_hanging():
    loader = Data.DataLoader(Squares(8, die_at=3), batch_size=2, num_workers=2)
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        list(loader)


def test_iterable_dataset():
    class Stream(Data.IterableDataset):
        def __iter__(self):
            return iter(range(5))

    assert [b.tolist() for b in Data.DataLoader(Stream(), batch_size=2)] == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError, match="shuffle"):
        Data.DataLoader(Stream(), shuffle=True)


class Shards(Data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = Data.get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


def test_iterable_dataset_in_worker_replicas_round_robin():
    def run(**kw):
        return [b.tolist() if hasattr(b, "tolist") else b for b in Data.DataLoader(**kw)]

    assert run(dataset=Shards(10), batch_size=2, num_workers=2) == [[0, 2], [1, 3], [4, 6], [5, 7], [8], [9]]
    assert run(dataset=Shards(7), batch_size=2, num_workers=3) == [[0, 3], [1, 4], [2, 5], [6]]
    assert run(dataset=Shards(5), batch_size=None, num_workers=2) == [0, 1, 2, 3, 4]
    assert run(dataset=Shards(9), batch_size=2, num_workers=2, drop_last=True) == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert run(dataset=Shards(3), batch_size=2, num_workers=4) == [[0], [1], [2]]
