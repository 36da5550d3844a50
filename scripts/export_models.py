#!/usr/bin/env python3
"""Export small torchvision networks with random weights as ONNX test cases.

Each model is written in the layout of ONNX's backend node tests, so that
`crosscheck onnx-conformance OUTDIR` runs them:

    OUTDIR/<name>/model.onnx
    OUTDIR/<name>/test_data_set_0/input_0.pb    (TensorProto, the input)
    OUTDIR/<name>/test_data_set_0/output_<i>.pb (PyTorch's eager outputs)

The networks are the torchvision architectures at reduced width and depth
(10 classes, batch 1, a 32x32 or 64x64 RGB input), so that each model.onnx
stays within a few MB. Everything random is seeded by --seed: the weights,
the BatchNorm running statistics (randomized so that the importer's
BatchNormalization is really exercised) and the input. Models are exported
in eval mode with static shapes and constant folding. A model that fails to
build or export is reported and skipped. OUTDIR/models.tsv records, per
model, its parameter count, file size, input shape and ONNX op types (not
.json: a seed corpus reads every .json file under it as a graph).

Needs torch, torchvision and onnx (Debian: /usr/bin/python3).

    scripts/export_models.py OUTDIR [--seed S] [--opset N] [--only A,B] [--list]
"""
import argparse
import importlib
import os
import shutil
import sys
import time
import warnings
from functools import partial

import onnx
import torch
import torchvision
from onnx import numpy_helper
from torch import nn
from torchvision.models import detection, efficientnet, inception, regnet, resnet, segmentation, vgg

# torchvision.models.googlenet is the builder function, which hides the module.
googlenet = importlib.import_module("torchvision.models.googlenet")

NUM_CLASSES = 10


# ---------------------------------------------------------------- builders


class NarrowResNet(resnet.ResNet):
    """torchvision's ResNet with every stage `divisor` times narrower."""

    def __init__(self, block, layers, divisor=4, **kwargs):
        self.divisor = divisor
        super().__init__(block, layers, **kwargs)
        self.fc = nn.Linear(512 * block.expansion // divisor, self.fc.out_features)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        return super()._make_layer(block, planes // self.divisor, blocks, stride, dilate)


def narrow_conv(conv_cls, divisor):
    """A conv block factory dividing all channel counts but the RGB input."""

    def make(in_channels, out_channels, **kwargs):
        in_channels = in_channels if in_channels == 3 else in_channels // divisor
        return conv_cls(in_channels, out_channels // divisor, **kwargs)

    return make


def narrow_inception_blocks(module, names, conv_cls, divisor):
    """Inception blocks whose convolutions are `divisor` times narrower."""
    conv = narrow_conv(conv_cls, divisor)
    return [conv] + [partial(getattr(module, n), conv_block=conv) for n in names]


def build_googlenet():
    names = ["Inception", "InceptionAux"]
    blocks = narrow_inception_blocks(googlenet, names, googlenet.BasicConv2d, 4)
    net = googlenet.GoogLeNet(num_classes=NUM_CLASSES, aux_logits=False, init_weights=True, blocks=blocks)
    net.fc = nn.Linear(1024 // 4, NUM_CLASSES)
    return net


def build_inception_v3():
    names = ["InceptionA", "InceptionB", "InceptionC", "InceptionD", "InceptionE", "InceptionAux"]
    blocks = narrow_inception_blocks(inception, names, inception.BasicConv2d, 8)
    net = inception.Inception3(num_classes=NUM_CLASSES, aux_logits=False, init_weights=True,
                               inception_blocks=blocks)
    net.fc = nn.Linear(2048 // 8, NUM_CLASSES)
    return net


def build_vgg():
    cfg = [8, "M", 16, "M", 32, 32, "M", 64, 64, "M", 64, 64, "M"]  # vgg11 / 8
    net = vgg.VGG(vgg.make_layers(cfg, batch_norm=True), num_classes=NUM_CLASSES)
    # The stock classifier has two 4096-wide Linear layers (>100M weights).
    net.avgpool = nn.AdaptiveAvgPool2d((1, 1))
    net.classifier = nn.Sequential(
        nn.Linear(64, 64), nn.ReLU(True), nn.Dropout(), nn.Linear(64, NUM_CLASSES))
    return net


def build_efficientnet_b0():
    setting, last = efficientnet._efficientnet_conf("efficientnet_b0", width_mult=0.25, depth_mult=0.5)
    return efficientnet.EfficientNet(setting, dropout=0.2, num_classes=NUM_CLASSES, last_channel=last)


def build_efficientnet_v2():
    fused, mb = efficientnet.FusedMBConvConfig, efficientnet.MBConvConfig
    setting = [fused(1, 3, 1, 8, 8, 1), fused(4, 3, 2, 8, 16, 1),
               mb(4, 3, 2, 16, 32, 1), mb(6, 3, 2, 32, 48, 1)]
    return efficientnet.EfficientNet(setting, dropout=0.2, num_classes=NUM_CLASSES, last_channel=256)


def build_regnet(se_ratio):
    params = regnet.BlockParams.from_init_params(
        depth=6, w_0=16, w_a=8.0, w_m=2.0, group_width=8, se_ratio=se_ratio)
    return regnet.RegNet(params, num_classes=NUM_CLASSES, stem_width=16)


def build_convnext():
    cfg = torchvision.models.convnext.CNBlockConfig
    # layer_scale: the stock 1e-6 would make every residual block a near no-op.
    return torchvision.models.ConvNeXt([cfg(16, 32, 1), cfg(32, None, 1)], layer_scale=0.5,
                                       num_classes=NUM_CLASSES)


def build_vit():
    net = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                                               hidden_dim=32, mlp_dim=64, num_classes=NUM_CLASSES)
    net.heads.head.reset_parameters()  # torchvision zero-initializes it: the output would be all 0
    return net


def build_swin(v2):
    sw = torchvision.models.swin_transformer
    extra = dict(block=sw.SwinTransformerBlockV2, downsample_layer=sw.PatchMergingV2) if v2 else {}
    return sw.SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[1, 1], num_heads=[1, 2],
                              window_size=[4, 4], stochastic_depth_prob=0.0,
                              num_classes=NUM_CLASSES, **extra)


def build_fpn_resnet():
    body = NarrowResNet(resnet.BasicBlock, [1, 1, 1, 1], divisor=4)
    layers = {f"layer{i}": str(i - 1) for i in range(1, 5)}
    return detection.backbone_utils.BackboneWithFPN(body, layers, [16, 32, 64, 128], out_channels=16)


def build_fpn_mobilenet_v3():
    # As detection.backbone_utils._mobilenet_extractor, with 32 FPN channels, not 256.
    body = torchvision.models.mobilenet_v3_small(width_mult=0.5).features
    stages = [i for i, b in enumerate(body) if getattr(b, "_is_cn", False)] + [len(body) - 1]
    layers = {str(stages[-2]): "0", str(stages[-1]): "1"}
    channels = [body[stages[-2]].out_channels, body[stages[-1]].out_channels]
    return detection.backbone_utils.BackboneWithFPN(
        body, layers, channels, out_channels=32, extra_blocks=detection.backbone_utils.LastLevelMaxPool())


def build_lraspp():
    body = torchvision.models.mobilenet_v3_small(width_mult=0.5, dilated=True)
    return segmentation.lraspp._lraspp_mobilenetv3(body, NUM_CLASSES)


def build_maxvit():
    return torchvision.models.MaxVit(
        input_size=(32, 32), stem_channels=16, partition_size=4, block_channels=[16, 32],
        block_layers=[1, 1], head_dim=8, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES)


M = torchvision.models
# name -> (builder, input height/width)
class Recurrent(nn.Module):
    """A recurrent network (nn.LSTM, nn.GRU, nn.RNN) with a linear head on its
    outputs: the exporter writes ONNX's LSTM/GRU/RNN ops, reordering
    PyTorch's gate weights into ONNX's order, which PyTorch's own output
    then checks."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn
        width = rnn.hidden_size * (2 if rnn.bidirectional else 1)
        self.head = nn.Linear(width, NUM_CLASSES)

    def forward(self, x):
        return self.head(self.rnn(x)[0])


# name -> (builder, input): an int is the side of a 1x3xNxN image, a tuple
# the input's shape (sequences: [seq, batch, features], or batch first).
MODELS = {
    "resnet18_w0.25": (lambda: NarrowResNet(resnet.BasicBlock, [2, 2, 2, 2], num_classes=NUM_CLASSES), 32),
    "resnet50_d1_w0.25": (lambda: NarrowResNet(resnet.Bottleneck, [1, 1, 1, 1], num_classes=NUM_CLASSES), 32),
    "mobilenet_v2_w0.25": (lambda: M.mobilenet_v2(width_mult=0.25, num_classes=NUM_CLASSES), 32),
    "mobilenet_v3_small_w0.5": (lambda: M.mobilenet_v3_small(width_mult=0.5, num_classes=NUM_CLASSES), 32),
    "mobilenet_v3_large_w0.25": (lambda: M.mobilenet_v3_large(width_mult=0.25, num_classes=NUM_CLASSES), 32),
    "shufflenet_v2_x0_5": (lambda: M.shufflenet_v2_x0_5(num_classes=NUM_CLASSES), 32),
    "squeezenet1_1": (lambda: M.squeezenet1_1(num_classes=NUM_CLASSES), 32),
    "mnasnet0_5": (lambda: M.mnasnet0_5(num_classes=NUM_CLASSES), 32),
    "efficientnet_b0_w0.25": (build_efficientnet_b0, 32),
    "efficientnet_v2_tiny": (build_efficientnet_v2, 32),
    "regnet_x_tiny": (lambda: build_regnet(None), 32),
    "regnet_y_tiny": (lambda: build_regnet(0.25), 32),
    "densenet_tiny": (lambda: M.DenseNet(growth_rate=8, block_config=(2, 2, 2),
                                         num_init_features=16, num_classes=NUM_CLASSES), 32),
    "googlenet_w0.25": (build_googlenet, 32),
    "inception_v3_w0.125": (build_inception_v3, 75),
    "vgg11_bn_w0.125": (build_vgg, 32),
    "convnext_tiny2": (build_convnext, 32),
    "vit_tiny": (build_vit, 32),
    "swin_tiny": (lambda: build_swin(False), 32),
    "swin_v2_tiny": (lambda: build_swin(True), 32),
    "maxvit_tiny": (build_maxvit, 32),
    "fpn_resnet_w0.25": (build_fpn_resnet, 64),
    "fpn_mobilenet_v3_small_w0.5": (build_fpn_mobilenet_v3, 64),
    "lraspp_mobilenet_v3_small_w0.5": (build_lraspp, 64),
    "lstm_2layer_bidir": (lambda: Recurrent(nn.LSTM(8, 12, num_layers=2, bidirectional=True)),
                          (5, 1, 8)),
    "gru_batch_first": (lambda: Recurrent(nn.GRU(8, 12, batch_first=True)), (1, 5, 8)),
    "rnn_tanh": (lambda: Recurrent(nn.RNN(8, 12)), (5, 1, 8)),
}


def input_shape(spec):
    """The input shape of a MODELS entry's second field."""
    return (1, 3, spec, spec) if isinstance(spec, int) else spec


# ---------------------------------------------------------------- export


class TupleOutputs(nn.Module):
    """Returns a model's dict output as a tuple, in the dict's order."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        out = self.model(x)
        return tuple(out.values()) if isinstance(out, dict) else out


def randomize_batchnorm(model, gen):
    """running_mean ~ N(0, 0.1), running_var ~ U(0.5, 1.5), from `gen`."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm) and m.track_running_stats:
            m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)


def build(name, seed):
    """The model `name` in eval mode, its weights and input seeded by `seed`."""
    builder, spec = MODELS[name]
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = TupleOutputs(builder()).eval()
    with torch.no_grad():
        randomize_batchnorm(model, gen)
    x = torch.randn(*input_shape(spec), generator=gen)
    return model, x


def write_tensor(path, array, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def pin_output_shapes(proto, outs):
    """Replaces symbolic output dims (the exporter leaves some, e.g. after a
    Reshape whose shape it computes) by the eager outputs' static ones."""
    for value, out in zip(proto.graph.output, outs):
        dims = value.type.tensor_type.shape.dim
        del dims[:]
        for size in out.shape:
            dims.add().dim_value = size


def export(name, outdir, seed, opset):
    """Writes one test folder; returns the facts recorded in models.tsv."""
    model, x = build(name, seed)
    # Not under no_grad, here nor at the export: in eval mode under no_grad,
    # nn.MultiheadAttention takes a fast path (aten::_native_multi_head_attention)
    # that the exporter lacks at opset 13.
    outs = model(x)
    outs = [t.detach() for t in (outs if isinstance(outs, tuple) else (outs,))]
    out_names = ["output"] if len(outs) == 1 else [f"output_{i}" for i in range(len(outs))]
    folder = os.path.join(outdir, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "test_data_set_0"))
    path = os.path.join(folder, "model.onnx")
    start = time.time()
    torch.onnx.export(model, (x,), path, input_names=["input"], output_names=out_names,
                      opset_version=opset, do_constant_folding=True)
    seconds = time.time() - start
    proto = onnx.load(path)
    pin_output_shapes(proto, outs)
    onnx.checker.check_model(proto)
    onnx.save(proto, path)
    data = os.path.join(folder, "test_data_set_0")
    write_tensor(os.path.join(data, "input_0.pb"), x.numpy(), "input")
    for i, (out, out_name) in enumerate(zip(outs, out_names)):
        write_tensor(os.path.join(data, f"output_{i}.pb"), out.numpy(), out_name)
    return {
        "params": sum(p.numel() for p in model.parameters()),
        "size_kb": round(os.path.getsize(path) / 1024),
        "input_shape": list(x.shape),
        "outputs": len(outs),
        "ops": sorted({node.op_type for node in proto.graph.node}),
        "export_s": round(seconds, 2),
    }


def export_or_skip(name, outdir, seed, opset):
    """export(), turning a failure into {"error": one line}."""
    try:
        return export(name, outdir, seed, opset)
    except Exception as e:  # report and go on with the next model
        shutil.rmtree(os.path.join(outdir, name), ignore_errors=True)
        lines = str(e).strip().splitlines() or [""]
        return {"error": f"{type(e).__name__}: {lines[0][:200]}"}


def write_index(path, args, report):
    """The exported models' facts, one line each (no timings: deterministic)."""
    with open(path, "w") as f:
        f.write(f"# scripts/export_models.py --seed {args.seed} --opset {args.opset}\n")
        f.write("name\tparams\tsize_kb\tinput\toutputs\tops\n")
        for name, facts in report.items():
            if "error" in facts:
                f.write(f"{name}\tskipped: {facts['error']}\n")
                continue
            shape = "x".join(map(str, facts["input_shape"]))
            f.write(f"{name}\t{facts['params']}\t{facts['size_kb']}\t{shape}\t"
                    f"{facts['outputs']}\t{' '.join(facts['ops'])}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir", nargs="?")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opset", type=int, default=13)
    parser.add_argument("--only", help="comma-separated model names")
    parser.add_argument("--list", action="store_true", help="list the model names and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(f"{n}  ({'x'.join(map(str, input_shape(spec)))})"
                        for n, (_, spec) in MODELS.items()))
        return 0
    if not args.outdir:
        parser.error("OUTDIR is required")
    names = args.only.split(",") if args.only else list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)} (see --list)")
    warnings.filterwarnings("ignore")
    os.makedirs(args.outdir, exist_ok=True)
    report = {}
    for name in names:
        facts = report[name] = export_or_skip(name, args.outdir, args.seed, args.opset)
        if "error" in facts:
            print(f"{name:32} SKIPPED  {facts['error']}", flush=True)
        else:
            print(f"{name:32} {facts['params']:>9,} params {facts['size_kb']:>6} KB "
                  f"{facts['export_s']:6.2f} s  {' '.join(facts['ops'])}", flush=True)
    write_index(os.path.join(args.outdir, "models.tsv"), args, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
