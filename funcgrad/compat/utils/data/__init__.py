"""torch.utils.data: datasets, samplers, collation and the DataLoader (docs/compat-nn.md)."""

from .collate import default_collate, default_convert  # noqa: F401
from .dataloader import DataLoader  # noqa: F401
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split  # noqa: F401
from .sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler,
)
from .worker import get_worker_info  # noqa: F401
from .dataset_combinators import ChainDataset, StackDataset  # noqa: E402,F401
