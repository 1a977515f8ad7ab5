"""A small U-Net that segments bright discs in noisy synthetic images, as a PyTorch user writes one.

Encoder: (Conv-BN-ReLU) x 2 blocks with max pooling; decoder: ``nn.Upsample(bilinear,
align_corners=True)`` or ``ConvTranspose2d``, ``torch.cat`` skip connections; loss =
BCEWithLogits + soft Dice; intersection-over-union on a held-out set is written to --out.
"""
import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Discs(Dataset):
    def __init__(self, n, size=32, seed=0):
        g = torch.Generator().manual_seed(seed)
        yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
        centers = torch.randint(6, size - 6, (n, 2), generator=g)
        radii = torch.randint(3, 7, (n,), generator=g)
        dist2 = (yy[None] - centers[:, 0, None, None]) ** 2 + (xx[None] - centers[:, 1, None, None]) ** 2
        self.masks = (dist2 <= radii[:, None, None] ** 2).float().unsqueeze(1)
        self.images = self.masks * 0.8 + 0.3 * torch.randn(n, 1, size, size, generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.masks[i]


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Up(nn.Module):
    def __init__(self, cin, cout, bilinear=True):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
            self.conv = DoubleConv(cin + cout, cout)
        else:
            self.up = nn.ConvTranspose2d(cin, cin // 2, kernel_size=2, stride=2)
            self.conv = DoubleConv(cin // 2 + cout, cout)

    def forward(self, x, skip):
        x = self.up(x)
        dy, dx = skip.size(2) - x.size(2), skip.size(3) - x.size(3)
        x = F.pad(x, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return self.conv(torch.cat([skip, x], dim=1))


class UNet(nn.Module):
    def __init__(self, width=8, bilinear=True):
        super().__init__()
        self.inc = DoubleConv(1, width)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(width, 2 * width))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(2 * width, 4 * width))
        self.up1 = Up(4 * width, 2 * width, bilinear)
        self.up2 = Up(2 * width, width, bilinear)
        self.outc = nn.Conv2d(width, 1, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x = self.up1(self.down2(x2), x2)
        return self.outc(self.up2(x, x1))


def dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (p.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + eps)).mean()


@torch.no_grad()
def iou(model, loader, device):
    model.eval()
    inter = union = 0.0
    for x, y in loader:
        pred = (model(x.to(device)) > 0).float()
        y = y.to(device)
        inter += (pred * y).sum().item()
        union += ((pred + y) > 0).float().sum().item()
    return inter / max(union, 1.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--train-size", type=int, default=256)
    parser.add_argument("--upsample", choices=["bilinear", "transpose"], default="bilinear")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--out", default="unet.json")
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(Discs(args.train_size, seed=1), batch_size=16, shuffle=True)
    val_loader = DataLoader(Discs(64, seed=2), batch_size=32)
    model = UNet(bilinear=args.upsample == "bilinear").to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    bce = nn.BCEWithLogitsLoss()
    start = iou(model, val_loader, device)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = bce(logits, y) + dice_loss(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * x.size(0)
        print(f"epoch {epoch} loss {total / len(train_loader.dataset):.4f} val IoU {iou(model, val_loader, device):.3f}")
    with open(args.out, "w") as f:
        json.dump({"iou_before": start, "iou": iou(model, val_loader, device)}, f)


if __name__ == "__main__":
    main()
