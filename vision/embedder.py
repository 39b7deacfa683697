"""The card embedder network (PyTorch; needed only for training, never at run time).

A small VGG-style CNN: five stride-2 stages shrink the 88×64 card image to 3×2 cells
(so the layout, name strip on top and art below, still counts), then one linear layer
gives a unit-length embedding. About 0.4 M parameters and 16 MFLOPs per card.
"""

from __future__ import annotations

import torch
from torch import nn

EMBED_DIM = 128


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Embedder(nn.Module):
    """Canonical card image (N, 3, 88, 64), normalised BGR → unit embedding (N, 128)."""

    def __init__(self, dim: int = EMBED_DIM) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 16, 2),
            _block(16, 32, 2),
            _block(32, 32, 1),
            _block(32, 64, 2),
            _block(64, 64, 1),
            _block(64, 128, 2),
            _block(128, 128, 1),
            nn.AdaptiveAvgPool2d((3, 2)),
            nn.Flatten(),
        )
        self.project = nn.Linear(128 * 6, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.project(self.features(x)), dim=1)


class CosineHead(nn.Module):
    """Training-only classifier: scaled cosine to one learned centre per class (CosFace)."""

    def __init__(
        self, classes: int, dim: int = EMBED_DIM, scale: float = 20.0, margin: float = 0.25
    ) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(classes, dim) * 0.1)
        self.scale, self.margin = scale, margin

    def forward(self, emb: torch.Tensor, labels: torch.Tensor | None = None) -> torch.Tensor:
        cos = emb @ nn.functional.normalize(self.weight, dim=1).T
        if labels is not None:
            cos = cos - self.margin * nn.functional.one_hot(labels, cos.shape[1])
        return self.scale * cos
