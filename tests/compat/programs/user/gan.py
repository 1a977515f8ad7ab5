"""A GAN that learns a 1-D Gaussian, written the way PyTorch users write GAN loops.

Generator and discriminator are small MLPs; the discriminator ends in Sigmoid
and both are trained with BCELoss and their own Adam. The discriminator step
uses ``fake.detach()`` so it does not push gradients into the generator.
Prints the statistics of generated samples before and after training.
"""
import argparse

import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, nz=4, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, hidden),
                                 nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, hidden),
                                 nn.LeakyReLU(0.2), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--nz", type=int, default=4)
    parser.add_argument("--mean", type=float, default=3.0)
    parser.add_argument("--std", type=float, default=0.5)
    args = parser.parse_args()

    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    G, D = Generator(args.nz).to(device), Discriminator().to(device)
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
    criterion = nn.BCELoss()
    fixed_noise = torch.randn(1000, args.nz, device=device)

    def report(tag):
        G.eval()
        with torch.no_grad():
            samples = G(fixed_noise)
        G.train()
        print(f"{tag}: fake mean {samples.mean().item():.3f} fake std {samples.std().item():.3f}")

    report("before")
    real_label, fake_label = 1.0, 0.0
    for step in range(1, args.steps + 1):
        real = args.mean + args.std * torch.randn(args.batch_size, 1, device=device)
        noise = torch.randn(args.batch_size, args.nz, device=device)
        fake = G(noise)

        # (1) discriminator: maximise log D(x) + log(1 - D(G(z)))
        D.zero_grad()
        label = torch.full((args.batch_size, 1), real_label, device=device)
        loss_real = criterion(D(real), label)
        loss_real.backward()  # before label.fill_: BCELoss saved the label for backward
        label.fill_(fake_label)
        loss_fake = criterion(D(fake.detach()), label)
        loss_fake.backward()
        loss_d = loss_real + loss_fake
        opt_d.step()

        # (2) generator: maximise log D(G(z))
        G.zero_grad()
        label.fill_(real_label)
        loss_g = criterion(D(fake), label)
        loss_g.backward()
        opt_g.step()
        if step % 100 == 0:
            print(f"step {step} loss_D {loss_d.item():.4f} loss_G {loss_g.item():.4f}")
    report("after")
    print(f"target: mean {args.mean:.3f} std {args.std:.3f}")
    torch.save({"G": G.state_dict(), "D": D.state_dict()}, "gan.pt")


if __name__ == "__main__":
    main()
