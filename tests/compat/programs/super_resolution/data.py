"""BSDS300 train/test sets: center crops, inputs downscaled by the upscale factor.

The official example downloads BSDS300 when ``dataset/BSDS300/images`` is missing;
this one expects the folder to be there (tests write small images into it).
"""
from os.path import exists, join

from torchvision.transforms import CenterCrop, Compose, Resize, ToTensor

from dataset import DatasetFromFolder


def bsd300(dest="dataset"):
    output_image_dir = join(dest, "BSDS300/images")
    if not exists(output_image_dir):
        raise FileNotFoundError(f"{output_image_dir} is missing: put BSDS300's train/ and test/ images there")
    return output_image_dir


def calculate_valid_crop_size(crop_size, upscale_factor):
    return crop_size - (crop_size % upscale_factor)


def input_transform(crop_size, upscale_factor):
    return Compose([CenterCrop(crop_size), Resize(crop_size // upscale_factor), ToTensor()])


def target_transform(crop_size):
    return Compose([CenterCrop(crop_size), ToTensor()])


def get_training_set(upscale_factor, crop_size=256):
    crop_size = calculate_valid_crop_size(crop_size, upscale_factor)
    return DatasetFromFolder(join(bsd300(), "train"), input_transform=input_transform(crop_size, upscale_factor),
                             target_transform=target_transform(crop_size))


def get_test_set(upscale_factor, crop_size=256):
    crop_size = calculate_valid_crop_size(crop_size, upscale_factor)
    return DatasetFromFolder(join(bsd300(), "test"), input_transform=input_transform(crop_size, upscale_factor),
                             target_transform=target_transform(crop_size))
