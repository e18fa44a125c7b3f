#!/usr/bin/python3
"""Export torchvision's own account of each zoo network, the oracle dlsim's zoo is tested against.

Run with Debian's python3 (it sees python3-torch and python3-torchvision):
    /usr/bin/python3 validation/oracle/export_torchvision.py --out validation/oracle

With --only NAME,... it measures and exports those networks alone and keeps the other
networks' entries of the reference as they are.

Writes torchvision_reference.json: per model, trainable parameters, batch-norm running
statistics, and per leaf module its output shape and multiply-adds (convolution and linear
layers), measured with forward hooks at batch 1 in eval mode.  With --onnx it also exports
ONNX graphs in training mode (no constant folding: initializers = parameters + BN state) and
eval mode (BN folded), with the initializer payloads stripped so the files stay small: dlsim
needs only their shapes (the stripping needs python3-onnx).
"""
import argparse
import json
import os

import torch
import torchvision

MODELS = {
    "alexnet": 224, "vgg11": 224, "vgg13": 224, "vgg16": 224, "vgg19": 224,
    "resnet18": 224, "resnet34": 224, "resnet50": 224, "resnet101": 224, "resnet152": 224,
    "inception_v3": 299, "googlenet": 224, "mobilenet_v2": 224,
    # Not in dlsim's zoo: imported from their ONNX export only.
    "efficientnet_b0": 224, "mobilenet_v3_large": 224, "regnet_y_400mf": 224, "densenet121": 224,
    "mnasnet1_0": 224, "resnext101_32x4d": 224, "shufflenet_v2_x1_0": 224, "squeezenet1_1": 224,
    # Thin networks no campaign serves, their operators timed inside passes on the Milan VM
    # (validation/data/in_pass_thin_devbox_milan_2128/): depthwise and 1x1 convolutions.
    "mobilenet_v3_small": 224, "mnasnet0_5": 224,
    # Networks served blind on the Zen 3 Milan VM (2026-11-29 21:52).
    "regnet_x_400mf": 224, "shufflenet_v2_x0_5": 224,
    # Networks served blind on the Granite Rapids VM once passes taking turns were timed
    # (2026-12-01; ResNet-34 too, exported so that one case file prices all three).
    "mnasnet0_75": 224, "shufflenet_v2_x1_5": 224, "squeezenet1_0": 224, "regnet_y_800mf": 224,
    # Networks served blind on the Granite Rapids VM once a team's spin was timed (2026-12-01).
    "mnasnet1_3": 224, "regnet_x_800mf": 224, "shufflenet_v2_x2_0": 224,
    # Served blind there once passes on a shared core were timed (2026-12-01 06:40).
    "efficientnet_b1": 224, "regnet_y_1_6gf": 224, "regnet_x_1_6gf": 224,
    # Served blind there with the machine's pace probed on the day (2026-12-01 09:10).
    "efficientnet_b2": 224, "regnet_y_3_2gf": 224, "resnext50_32x4d": 224,
    # Served blind there, priced from a page census and the pace both taken just before
    # (2026-12-01 11:09).
    "efficientnet_b3": 224, "densenet169": 224, "regnet_x_3_2gf": 224,
    # Served blind there at batches 4 and 16 the same way (2026-12-01 11:40).
    "efficientnet_v2_s": 224, "wide_resnet50_2": 224,
    # Served blind on a freshly booted Granite Rapids VM, priced from the earlier VM's
    # calibration with the pace and a page census taken on the day (2026-12-01 14:40;
    # resnet101, resnet152 and vgg19 are in the zoo).
    "efficientnet_b4": 224,
    # A channels-last network (layer norms, linear layers over each position, exact GELU),
    # served blind on that VM (2026-12-01 18:40).
    "convnext_tiny": 224,
    # Its deeper sibling (27 blocks in the third stage), served blind there with a pace per
    # operator kind probed before (2026-12-01 21:30).
    "convnext_small": 224,
}
ONNX_MODELS = ["resnet50", "alexnet", "mobilenet_v2", "googlenet", "vgg11", "inception_v3",
               "efficientnet_b0", "mobilenet_v3_large", "regnet_y_400mf", "densenet121", "mnasnet1_0",
               "resnext101_32x4d", "shufflenet_v2_x1_0", "squeezenet1_1", "mobilenet_v3_small", "mnasnet0_5",
               "regnet_x_400mf", "shufflenet_v2_x0_5", "mnasnet0_75", "shufflenet_v2_x1_5", "resnet34",
               "squeezenet1_0", "regnet_y_800mf", "mnasnet1_3", "regnet_x_800mf", "shufflenet_v2_x2_0",
               "efficientnet_b1", "regnet_y_1_6gf", "regnet_x_1_6gf", "efficientnet_b2", "regnet_y_3_2gf",
               "resnext50_32x4d", "efficientnet_b3", "densenet169", "regnet_x_3_2gf",
               "efficientnet_v2_s", "wide_resnet50_2", "resnet101", "efficientnet_b4", "resnet152", "vgg19",
               "convnext_tiny", "convnext_small"]


def build(name):
    # googlenet: torchvision's published model (6,624,904 params) has no auxiliary heads;
    # inception_v3: torchvision's published model (27,161,264) keeps AuxLogits.
    if name == "googlenet":
        return torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=False)
    if name == "inception_v3":
        return torchvision.models.inception_v3(weights=None, aux_logits=True, init_weights=False)
    if name == "resnext101_32x4d":  # NVIDIA's ResNeXt-101 (DeepLearningExamples), with torchvision's ResNet
        from torchvision.models.resnet import Bottleneck, ResNet
        return ResNet(Bottleneck, [3, 4, 23, 3], groups=32, width_per_group=4)
    return getattr(torchvision.models, name)(weights=None)


def leaf_records(model, size):
    records = []

    def hook(module, inputs, output):
        name = names[module]
        out = output[0] if isinstance(output, (tuple, list)) else output
        macs = 0
        if isinstance(module, torch.nn.Conv2d):
            k = module.kernel_size[0] * module.kernel_size[1]
            macs = out.numel() * (module.in_channels // module.groups) * k
        elif isinstance(module, torch.nn.Linear):
            macs = out.numel() // out.shape[-1] * module.in_features * module.out_features
        records.append({"name": name, "type": type(module).__name__,
                        "output_shape": list(out.shape), "macs": int(macs)})

    names = {m: n for n, m in model.named_modules()}
    handles = [m.register_forward_hook(hook) for m in model.modules()
               if len(list(m.children())) == 0]
    with torch.no_grad():
        model(torch.zeros(1, 3, size, size))
    for h in handles:
        h.remove()
    return records


def strip_payloads(path):
    import onnx
    model = onnx.load(path)
    for init in model.graph.initializer:
        init.ClearField("raw_data")
        for field in ("float_data", "int64_data", "int32_data", "double_data"):
            init.ClearField(field)
    onnx.save(model, path)


def without_stochastic_depth(model):
    """EfficientNet's stochastic depth draws a Bernoulli factor per sample in training, which
    torch.onnx cannot trace; the training export leaves it out (its cost, one product per
    residual block, is not in dlsim's graph of the network)."""
    from torchvision.ops import StochasticDepth
    for parent in list(model.modules()):
        for child_name, child in parent.named_children():
            if isinstance(child, StochasticDepth):
                setattr(parent, child_name, torch.nn.Identity())
    return model


def export_onnx(name, model, size, out_dir):
    for mode, tm, fold in (("train", torch.onnx.TrainingMode.TRAINING, False),
                           ("eval", torch.onnx.TrainingMode.EVAL, True)):
        # Inception-v3's auxiliary head normalises a 1x1 map, which training mode refuses
        # for a single sample: its training export traces two.
        x = torch.zeros(2 if name == "inception_v3" and mode == "train" else 1, 3, size, size)
        path = os.path.join(out_dir, f"{name}_{mode}.onnx")
        model.train(mode == "train")
        if mode == "train":
            model = without_stochastic_depth(model)
        torch.onnx.export(model, x, path, training=tm, do_constant_folding=fold,
                          opset_version=13, input_names=["input"], output_names=["output"])
        strip_payloads(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--onnx", action="store_true")
    ap.add_argument("--only", help="comma-separated networks to measure again; the others' entries are kept")
    args = ap.parse_args()
    only = args.only.split(",") if args.only else list(MODELS)
    unknown = [name for name in only if name not in MODELS]
    if unknown:
        ap.error(f"--only: {', '.join(unknown)} not among the networks this script knows ({', '.join(MODELS)})")
    torch.manual_seed(0)
    result = {"generator": "validation/oracle/export_torchvision.py",
              "torch": torch.__version__, "torchvision": torchvision.__version__,
              "mode": "eval, batch 1", "models": {}}
    reference = os.path.join(args.out, "torchvision_reference.json")
    if args.only:
        with open(reference) as f:
            result["models"] = json.load(f)["models"]
    for name in only:
        size = MODELS[name]
        model = build(name).eval()
        params = sum(p.numel() for p in model.parameters() if p.requires_grad)
        buffers = sum(b.numel() for n, b in model.named_buffers()
                      if n.endswith("running_mean") or n.endswith("running_var"))
        layers = leaf_records(model, size)
        result["models"][name] = {
            "input": [3, size, size], "params": params, "bn_running_stats": buffers,
            "macs": sum(l["macs"] for l in layers), "layers": layers}
        print(name, params, result["models"][name]["macs"], flush=True)
        if args.onnx and name in ONNX_MODELS:
            export_onnx(name, model, size, os.path.join(args.out, "onnx"))
    with open(reference, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
