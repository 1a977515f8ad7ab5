"""Samplers: Sequential, Random, SubsetRandom, WeightedRandom, Batch."""

from __future__ import annotations

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]


def _seeded_generator(generator):
    """The generator to draw from: ``generator``, else a fresh one seeded from the global stream."""
    from ...creation import Generator, default_generator  # noqa: PLC0415

    if generator is not None:
        return generator
    return Generator().manual_seed(int(default_generator.rng.integers(0, 2**63 - 1)))


class Sampler:
    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __iter__")


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation each epoch (or ``num_samples`` draws with replacement)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement, self.generator = data_source, replacement, generator
        self._num_samples = num_samples
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        from ...creation import randint, randperm  # noqa: PLC0415

        g = _seeded_generator(self.generator)
        n = len(self.data_source)
        if self.replacement:
            yield from randint(0, n, (self.num_samples,), generator=g).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from randperm(n, generator=g).tolist()
        yield from randperm(n, generator=g).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        from ...creation import randperm  # noqa: PLC0415

        for i in randperm(len(self.indices), generator=_seeded_generator(self.generator)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples, replacement=True, generator=None):
        from ...creation import as_tensor  # noqa: PLC0415
        from ...dtypes import float64  # noqa: PLC0415

        self.weights = as_tensor(weights, dtype=float64)
        self.num_samples, self.replacement, self.generator = num_samples, replacement, generator

    def __iter__(self):
        from ... import multinomial  # noqa: PLC0415

        yield from multinomial(self.weights, self.num_samples, self.replacement,
                               generator=_seeded_generator(self.generator)).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``."""

    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
