"""``FakeData``: random images, the same for an index every time (as torchvision's)."""

from __future__ import annotations

from ... import creation, dtypes
from .. import transforms
from .vision import VisionDataset

__all__ = ["FakeData"]


class FakeData(VisionDataset):
    """``size`` images of ``image_size`` (C, H, W) with targets in ``[0, num_classes)``.

    Item ``i`` is drawn from the compat generator seeded with ``i + random_offset`` (its state is saved
    and restored around the draw, so the global stream is untouched) and returned as a PIL image."""

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
        state = creation.get_rng_state()
        try:
            creation.manual_seed(index + self.random_offset)
            img = creation.randn(*self.image_size)
            target = creation.randint(0, self.num_classes, size=(1,), dtype=dtypes.int64)[0]
        finally:
            creation.set_rng_state(state)
        img = transforms.ToPILImage()(img)
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target.item()

    def __len__(self):
        return self.size
