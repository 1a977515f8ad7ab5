"""``FakeData``: random images, the same for an index every time (as torchvision's)."""

from __future__ import annotations

from ... import creation, dtypes
from .. import transforms
from .vision import VisionDataset

__all__ = ["FakeData"]


class FakeData(VisionDataset):
    """``size`` images of ``image_size`` (C, H, W) with targets in ``[0, num_classes)``.

    Item ``i`` is drawn from a compat generator seeded with ``i + random_offset`` (the numbers
    ``torch.manual_seed(i + random_offset)`` would give; the global stream is untouched) and returned as
    a PIL image."""

    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None,
                 random_offset=0):
        super().__init__(transform=transform, target_transform=target_transform)
        self.size, self.num_classes = size, num_classes
        self.image_size, self.random_offset = image_size, random_offset

    def __getitem__(self, index):
        if index < 0:  # ds[-1] is the last item (torchvision would seed with the negative index)
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"{self.__class__.__name__} index out of range")
        gen = creation.Generator().manual_seed((index + self.random_offset) % 2**64)
        img = creation.randn(*self.image_size, generator=gen)
        target = creation.randint(0, self.num_classes, size=(1,), dtype=dtypes.int64, generator=gen)[0]
        img, target = self._transformed(transforms.ToPILImage()(img), target)
        return img, target.item()

    def __len__(self):
        return self.size
