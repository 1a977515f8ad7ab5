"""``torchvision.datasets``: MNIST, FashionMNIST, KMNIST, CIFAR10, CIFAR100, SVHN, STL10, ImageFolder,
DatasetFolder, FakeData. They read torchvision's on-disk layouts under ``root`` and never download anything."""

from .cifar import CIFAR10, CIFAR100  # noqa: F401
from .fakedata import FakeData  # noqa: F401
from .folder import DatasetFolder, ImageFolder  # noqa: F401
from .mnist import KMNIST, MNIST, FashionMNIST  # noqa: F401
from .svhn_stl10 import STL10, SVHN  # noqa: F401
from .vision import VisionDataset  # noqa: F401

__all__ = ["CIFAR10", "CIFAR100", "DatasetFolder", "FakeData", "FashionMNIST", "ImageFolder", "KMNIST", "MNIST",
           "STL10", "SVHN", "VisionDataset"]
