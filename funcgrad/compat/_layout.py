"""PyTorch's module layout over the compat classes.

Real scripts import and subclass through ``torch.nn.modules.linear``,
``torch.nn.modules.conv._ConvNd``, ``torch.nn.parallel.DataParallel``, ... .
This module makes those paths exist as modules (``funcgrad.compat.nn.modules``
and its submodules) whose attributes are the existing compat classes, so
``isinstance`` and subclassing see one class. ``torch.nn.parallel`` is a real
module (``funcgrad/compat/nn/parallel.py``).
Layers funcgrad.compat does not have (RNNs, transformer layers) get no module.
"""

from __future__ import annotations

import sys
import types

from . import nn

# torch.nn.modules.<file>: the names PyTorch defines there (those compat has).
LAYOUT = {
    "module": ("Module",),
    "linear": ("Identity", "Linear", "Bilinear", "LazyLinear"),
    "conv": ("_ConvNd", "Conv1d", "Conv2d", "_ConvTransposeNd", "ConvTranspose1d", "ConvTranspose2d", "Conv3d",
             "ConvTranspose3d"),
    "sparse": ("Embedding", "EmbeddingBag"),
    "dropout": ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"),
    "activation": ("MultiheadAttention", "ReLU", "ReLU6", "SiLU", "LeakyReLU", "ELU", "Hardtanh", "GELU", "Softplus", "Sigmoid", "Tanh",
                   "LogSigmoid", "Softmax", "LogSoftmax", "Softmin", "PReLU", "Mish", "Hardswish", "Hardsigmoid", "Softsign", "Tanhshrink",
                   "Threshold", "GLU", "CELU", "SELU", "RReLU", "Hardshrink", "Softshrink", "Softmax2d"),
    "container": ("Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"),
    "normalization": ("LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm"),
    "instancenorm": ("_InstanceNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"),
    "rnn": ("_RNNBase", "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"),
    "transformer": ("TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer", "TransformerDecoder",
                    "Transformer"),
    "batchnorm": ("_BatchNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d"),
    "loss": ("_Loss", "_WeightedLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "NLLLoss",
             "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss",
             "MarginRankingLoss", "TripletMarginLoss", "HingeEmbeddingLoss", "PoissonNLLLoss", "GaussianNLLLoss",
             "MultiLabelSoftMarginLoss", "MultiMarginLoss", "SoftMarginLoss",
             "TripletMarginWithDistanceLoss", "MultiLabelMarginLoss", "CTCLoss"),
    "pooling": ("_MaxPoolNd", "MaxPool1d", "MaxPool2d", "_AvgPoolNd", "AvgPool1d", "AvgPool2d",
                "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d",
                "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d",
                "MaxUnpool3d"),
    "flatten": ("Flatten", "Unflatten"),
    "pixelshuffle": ("PixelShuffle", "PixelUnshuffle"),
    "channelshuffle": ("ChannelShuffle",),
    "fold": ("Fold", "Unfold"),
    "distance": ("PairwiseDistance", "CosineSimilarity"),
    "upsampling": ("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"),
    "padding": ("ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
                "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
                "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"),
}


def _classes(names):
    """name -> class for ``names``, from the compat nn modules (private bases included)."""
    from .nn import activation, containers, conv, ctc, distance, dropout, linear, loss, module, normalization  # noqa: PLC0415
    from .nn import padding, pooling, rnn, shape_layers, sparse, transformer, unpool, upsampling  # noqa: PLC0415

    found = {}
    for name in names:
        for src in (nn, activation, ctc, unpool, loss, padding, linear, conv, pooling, normalization, dropout, sparse,
                    distance, shape_layers, rnn, transformer, containers, module, upsampling):
            if hasattr(src, name):
                found[name] = getattr(src, name)
                break
        else:
            raise ImportError(f"funcgrad.compat._layout: nn has no {name!r}")
    return found


def _module(name, doc, attrs, package=False):
    mod = types.ModuleType(name, doc)
    mod.__dict__.update(attrs)
    mod.__all__ = [k for k in attrs if not k.startswith("_")]
    if package:
        mod.__path__ = []
    sys.modules[name] = mod
    return mod


def install():
    """Create ``nn.modules`` (and its submodules); idempotent."""
    base = nn.__name__
    if hasattr(nn, "modules") and isinstance(nn.modules, types.ModuleType):
        return
    every = {}
    subs = {}
    for file, names in LAYOUT.items():
        attrs = _classes(names)
        every.update(attrs)
        subs[file] = _module(f"{base}.modules.{file}", f"torch.nn.modules.{file} (funcgrad.compat aliases)", attrs)
    pkg = _module(f"{base}.modules", "torch.nn.modules (funcgrad.compat aliases)", every, package=True)
    for file, mod in subs.items():
        setattr(pkg, file, mod)
    nn.modules = pkg


install()
