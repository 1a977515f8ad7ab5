"""``VisionDataset`` (root, transforms, repr) and the one "dataset not found" error every dataset raises."""

from __future__ import annotations

import os

from ...utils.data import Dataset

NO_NETWORK = "funcgrad.compat.vision never downloads anything (download=True only uses files already there)"


def _apply(transform, target_transform, sample, target):
    if transform is not None:
        sample = transform(sample)
    if target_transform is not None:
        target = target_transform(target)
    return sample, target


class StandardTransform:
    """Applies ``transform`` to the input and ``target_transform`` to the target."""

    def __init__(self, transform=None, target_transform=None):
        self.transform, self.target_transform = transform, target_transform

    def __call__(self, input, target):
        return _apply(self.transform, self.target_transform, input, target)

    @staticmethod
    def _format_transform_repr(transform, head):
        lines = repr(transform).splitlines()
        return [f"{head}{lines[0]}"] + [" " * len(head) + line for line in lines[1:]]

    def __repr__(self):
        body = [self.__class__.__name__]
        if self.transform is not None:
            body += self._format_transform_repr(self.transform, "Transform: ")
        if self.target_transform is not None:
            body += self._format_transform_repr(self.target_transform, "Target transform: ")
        return "\n".join(body)


class VisionDataset(Dataset):
    """Base of the datasets: ``root`` (``~`` expanded), ``transform``, ``target_transform`` or a joint
    ``transforms(input, target)``."""

    _repr_indent = 4

    def __init__(self, root=None, transforms=None, transform=None, target_transform=None):
        if isinstance(root, str):
            root = os.path.expanduser(root)
        self.root = root
        has_separate = transform is not None or target_transform is not None
        if transforms is not None and has_separate:
            raise ValueError("Only transforms or transform/target_transform can be passed as argument")
        self.transform, self.target_transform = transform, target_transform
        self.transforms = StandardTransform(transform, target_transform) if has_separate else transforms

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define __getitem__")

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __len__")

    def _transformed(self, sample, target):
        """``(transform(sample), target_transform(target))``, each if given."""
        return _apply(self.transform, self.target_transform, sample, target)

    def extra_repr(self):
        return ""

    def __repr__(self):
        body = [f"Number of datapoints: {self.__len__()}"]
        if self.root is not None:
            body.append(f"Root location: {self.root}")
        body += self.extra_repr().splitlines()
        if getattr(self, "transforms", None) is not None:
            body += [repr(self.transforms)]
        return "\n".join(["Dataset " + self.__class__.__name__] + [" " * self._repr_indent + line for line in body])


class SplitDataset(VisionDataset):
    """A train or test split held in memory as ``data`` and ``targets`` (MNIST, CIFAR); subclasses say how
    item ``index`` becomes a PIL image and an int (``_sample``)."""

    def _sample(self, index):
        raise NotImplementedError(f"{type(self).__name__} must define _sample")

    def __getitem__(self, index):
        return self._transformed(*self._sample(index))

    def __len__(self):
        return len(self.data)

    def extra_repr(self):
        return f"Split: {'Train' if self.train is True else 'Test'}"


def dataset_not_found(name, folder, files, missing, how, download):
    """RuntimeError naming the folder, every file expected there, the missing ones and ``how`` to get them."""
    given = "download=True was given, but " if download else ""
    return RuntimeError(
        f"Dataset not found. {name} expects these files in {os.path.abspath(folder)}: {', '.join(files)}; "
        f"missing: {', '.join(missing)}. {given}{NO_NETWORK}: {how}.")
