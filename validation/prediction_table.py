#!/usr/bin/env python3
"""Regenerates the prediction accuracy tables from `dlsim validate --format json` on the
committed cases (validation/cases/), measured runs and calibration profiles: README.md's
table of the issues' accuracy goals over the cases they name (GOALS), and
validation/REPORT.md's tables of every group and every case.

    validation/prediction_table.py build/sim/cli/dlsim           rewrite the tables
    validation/prediction_table.py build/sim/cli/dlsim --check   exit 1 if either file is stale

Either way it exits 1 when a group is past its committed bound (`dlsim validate` exits 1).

Groups named "<what>/<calibration>" (e.g. ".../torch-ops" and ".../onednn-kernels") that
predict the same measured rows share one row per case, a column pair per calibration.
Serving cases ("cpu-serve/...") get a table of their own, a column triple per measured
quantity (throughput, p99 latency); GPU whole-network cases another; kernel cases ("gpu-kernel/...", a
thousand DeepBench kernels) are summarised per group only.
"""
import argparse
import json
import os
import subprocess
import sys

from generated_section import update


def number(x):
    return "-" if x is None else f"{x:.4g}"


def error(x):
    return "-" if x is None else f"{x:+.1f}%"


def calibration_columns(cases):
    """One row per CPU case, a column triple per calibration that predicted it."""
    ways, rows = [], {}
    for c in cases:
        base, _, way = c["group"].rpartition("/")
        if way not in ways:
            ways.append(way)
        row = rows.setdefault((base, c["id"], c["source"]), {"measured": c["measured"]})
        row[way] = (c["predicted"], c.get("error_pct"), c.get("measured_in_band"))
    head = "| case | measured | " + " | ".join(f"{w} predicted | error | in band" for w in ways) + " |\n"
    head += "|---|---:|" + "---:|---:|:-:|" * len(ways) + "\n"
    body = ""
    files = {source.rsplit("/", 1)[-1].split(":")[0] for _, _, source in rows}
    for (base, case, source), row in rows.items():
        cells = []
        for w in ways:
            predicted, err, in_band = row.get(w, (None, None, None))
            cells += [number(predicted), error(err), "-" if in_band is None else ("yes" if in_band else "no")]
        label = case if len(files) == 1 else f"{case} ({source.rsplit('/', 1)[-1].split(':')[0]})"
        body += f"| {label} | {number(row['measured'])} | " + " | ".join(cells) + " |\n"
    return head + body


def plain(cases):
    """One row per case, with its group (GPU whole-network runs)."""
    out = "| case | group | measured | predicted | error | in band |\n|---|---|---:|---:|---:|:-:|\n"
    for c in cases:
        band = "-" if c.get("measured_in_band") is None else ("yes" if c["measured_in_band"] else "no")
        out += (f"| {c['id']} | {c['group']} | {number(c['measured'])} | {number(c['predicted'])} | "
                f"{error(c.get('error_pct'))} | {band} |\n")
    return out


def cpu_serving(campaign):
    """The group prefixes of a CPU serving campaign's throughput and P99 cases."""
    return (f"cpu-serve/in-process/{campaign}/throughput", f"cpu-serve/local/{campaign}/",
            f"cpu-serve/remote-5gbps/{campaign}/")


def open_loop(campaign, *groups):
    """Group prefixes of an open-loop campaign on the Zen 5 VM (validation/serving_open_cases.py):
    its clients local, or behind the 5 Gbit/s link where the campaign's name says remote."""
    part = "remote-5gbps-open" if campaign.startswith("remote") else "local-open"
    return tuple(f"cpu-serve/{part}/devbox-epyc-turin21-{campaign}/{group}" for group in groups)


def networks_campaign(label, campaign, networks, machine="devbox-epyc-genoa"):
    """A campaign of several networks (`networks`: group slug, name) on a CPU VM (`machine`,
    the groups' first part): a row over all of them, then one per network, the first "of
    them ..."."""
    groups = [cpu_serving(f"{machine}-{slug}-{campaign}") for slug, _ in networks]
    names = [f"of them {networks[0][1]}"] + [name for _, name in networks[1:]]
    return [(label, sum(groups, ()))] + list(zip(names, groups))


# Each network's name in the tables, by its zoo slug.
NETWORK_NAMES = {
    "alexnet": "AlexNet", "convnext_small": "ConvNeXt-S", "convnext_tiny": "ConvNeXt-T", "densenet121": "DenseNet-121",
    "densenet169": "DenseNet-169", "efficientnet_b0": "EfficientNet-B0", "efficientnet_b1": "EfficientNet-B1",
    "efficientnet_b2": "EfficientNet-B2", "efficientnet_b3": "EfficientNet-B3", "efficientnet_b4": "EfficientNet-B4",
    "efficientnet_v2_s": "EfficientNetV2-S", "googlenet": "GoogLeNet", "inception_v3": "Inception-v3",
    "mnasnet0_5": "MNASNet 0.5", "mnasnet0_75": "MNASNet 0.75", "mnasnet1_0": "MNASNet 1.0",
    "mnasnet1_3": "MNASNet 1.3", "mobilenet_v2": "MobileNetV2", "mobilenet_v3_large": "MobileNetV3-Large",
    "mobilenet_v3_small": "MobileNetV3-Small", "regnet_x_1_6gf": "RegNetX-1.6GF", "regnet_x_3_2gf": "RegNetX-3.2GF",
    "regnet_x_400mf": "RegNetX-400MF", "regnet_x_800mf": "RegNetX-800MF", "regnet_y_1_6gf": "RegNetY-1.6GF",
    "regnet_y_3_2gf": "RegNetY-3.2GF", "regnet_y_400mf": "RegNetY-400MF", "regnet_y_800mf": "RegNetY-800MF",
    "resnet101": "ResNet-101", "resnet152": "ResNet-152", "resnet18": "ResNet-18", "resnet34": "ResNet-34",
    "resnet50": "ResNet-50", "resnext50_32x4d": "ResNeXt-50 32x4d", "shufflenet_v2_x0_5": "ShuffleNetV2 0.5x",
    "shufflenet_v2_x1_0": "ShuffleNetV2 1.0x", "shufflenet_v2_x1_5": "ShuffleNetV2 1.5x",
    "shufflenet_v2_x2_0": "ShuffleNetV2 2.0x", "squeezenet1_0": "SqueezeNet 1.0", "squeezenet1_1": "SqueezeNet 1.1",
    "vgg11": "VGG-11", "vgg13": "VGG-13", "vgg16": "VGG-16", "vgg19": "VGG-19", "wide_resnet50_2": "Wide ResNet-50-2",
}


def named(*slugs):
    """The (slug, name) pairs of a campaign's networks, as NETWORK_NAMES names them."""
    return [(slug, NETWORK_NAMES[slug]) for slug in slugs]


# The networks of the 21:38 Genoa campaign, predicted from two calibrations.
UNSEEN_2138 = named("alexnet", "vgg11", "resnet101")
# The networks of the 19:48 Zen 5 campaign, predicted from two calibrations.
ZEN5_1950 = named("resnet101", "resnet152", "vgg19", "resnet34")
# Its networks measured three times more, and the 16:20 and 17:16 campaigns' networks.
ZEN5_REPEATS = named("vgg19", "resnet34", "resnet101")
ZEN5_1620 = named("resnet18", "resnet50", "mobilenet_v2")
# The campaign after the Python stacks were timed as they serve.
ZEN5_STACKS = named("resnet34", "mobilenet_v2")
# The first campaign priced from a page census taken before it.
ZEN5_CENSUS_FIRST = named("resnet34", "googlenet")
ZEN5_CENSUS_FIRST_2 = named("resnet18", "vgg11")
# Networks known only by their ONNX export, none served or timed on a CPU before.
ONNX_NETWORKS = named("efficientnet_b0", "mobilenet_v3_large", "shufflenet_v2_x1_0", "regnet_y_400mf", "densenet121",
                      "squeezenet1_1")

# The networks of the Milan VM's 19:19 campaign, after its page's price was taken again.
MILAN_1919 = named("mobilenet_v2", "mnasnet1_0", "googlenet")
# Thin networks the Milan VM's 21:52 campaign served, never served or timed on any VM.
MILAN_THIN_2153 = named("regnet_x_400mf", "shufflenet_v2_x0_5")
# The Milan VM's in-process runs of 2026-11-30 01:42, three rounds, a case at their median.
MILAN_REPEATS_0142 = named("mobilenet_v3_large", "mnasnet1_0", "regnet_x_400mf", "shufflenet_v2_x1_0", "mobilenet_v2",
                           "efficientnet_b0", "resnet18")
# Networks the Milan VM's 2026-11-30 04:09 campaign served, never served on that VM kind.
MILAN_BLIND_0409 = named("mobilenet_v3_small", "mnasnet0_5", "alexnet", "vgg11")
# Networks the Milan VM's 2026-11-30 07:23 campaign served (dlsim's zoo), never served on that VM kind.
MILAN_BLIND_0723 = named("resnet34", "vgg13", "resnet101")
# The Milan VM's 2026-11-30 09:50 campaign: clients reading their images from JPEG files.
MILAN_FILES_0950 = named("resnet18", "mobilenet_v3_small")
# The Granite Rapids VM's 2026-11-30 13:50 campaign: ResNet-18 from files, MobileNetV2 from tensors.
GRANITE_1350 = [("resnet18", "ResNet-18 from files"), ("mobilenet_v2", "MobileNetV2, never timed on any VM")]
# Its 14:18 campaign: a network its calibration timed and one it did not.
GRANITE_1418 = named("resnet50", "vgg11")
# Its 15:36 and 16:04 campaigns, after the linear fits learned weights read for every sample.
GRANITE_1540 = named("alexnet", "vgg13")
GRANITE_1604 = [("alexnet", "AlexNet at batches 2 and 16"), ("vgg16", "VGG-16 at batches 1 and 8")]
GRANITE_1703 = named("alexnet", "vgg16")
# Its 19:03 campaign (and that campaign's two-thread half again at 20:18): two networks its
# calibration never timed, most of their operators fitted.
GRANITE_1915 = named("googlenet", "inception_v3")
GRANITE_2149 = named("densenet121", "shufflenet_v2_x1_0", "squeezenet1_1")
GRANITE_2223 = named("efficientnet_b0", "mobilenet_v3_large", "regnet_y_400mf")
GRANITE_2351 = named("mobilenet_v3_small", "regnet_x_400mf", "mnasnet1_0")
GRANITE_0019 = named("mnasnet0_5", "shufflenet_v2_x0_5")
GRANITE_0258 = named("mnasnet0_75", "shufflenet_v2_x1_5", "resnet34")
GRANITE_0356 = named("squeezenet1_0", "regnet_y_800mf")
GRANITE_0540 = named("mnasnet1_3", "regnet_x_800mf", "shufflenet_v2_x2_0")
GRANITE_0628 = named("efficientnet_b1", "regnet_y_1_6gf", "regnet_x_1_6gf")
GRANITE_0845 = named("efficientnet_b2", "regnet_y_3_2gf", "resnext50_32x4d")
GRANITE_1109 = named("efficientnet_b3", "densenet169", "regnet_x_3_2gf")
GRANITE_1134 = named("efficientnet_v2_s", "wide_resnet50_2", "mobilenet_v3_large")
# The freshly booted Granite Rapids VM's five campaigns (2026-12-01 14:38, 15:02, 15:12, 15:24 and 15:39).
GRANITE_FRESH_1440 = named("resnet50", "resnet101", "efficientnet_b4")
GRANITE_DENSE_1500 = named("resnet152", "vgg19", "mobilenet_v2", "shufflenet_v2_x1_0")
GRANITE_THIN_1530 = named("efficientnet_b0", "regnet_y_400mf", "googlenet", "densenet121")
GRANITE_REMOTE_1530 = named("resnet50", "resnet101", "mobilenet_v2")
GRANITE_ONE_THREAD_1535 = named("resnet50", "efficientnet_b0", "densenet121")
# A channels-last network served there (18:47), imported from its ONNX export.
GRANITE_CONVNEXT_1842 = named("convnext_tiny")
# The fresh VM's campaigns priced from its own 19:25 calibration: a GEMM-bound network beside a
# oneDNN-bound one, then two mostly linear ones beside a convolutional one.
GRANITE_KINDS_2115 = named("convnext_small", "resnet50")
GRANITE_LINEARS_2135 = named("vgg11", "alexnet", "regnet_y_1_6gf")
GRANITE_SERVED_2337 = named("resnext50_32x4d", "densenet169", "mobilenet_v3_large")
GRANITE_SERVED_2347 = named("resnet34", "efficientnet_b2", "regnet_x_3_2gf")
GRANITE_THREADS_0002 = named("regnet_y_3_2gf", "efficientnet_b1", "shufflenet_v2_x2_0")
GRANITE_MEDIANS_0211 = named("googlenet", "mnasnet1_0", "regnet_x_400mf")
GRANITE_MEDIANS_0250 = named("efficientnet_b0", "squeezenet1_1", "regnet_y_800mf")
GRANITE_MEDIANS_0333 = named("mobilenet_v3_small", "resnet34", "inception_v3")
GRANITE_YARDSTICKS_0505 = named("shufflenet_v2_x1_0", "mnasnet0_5", "mobilenet_v3_large")
GRANITE_YARDSTICKS_0555 = named("shufflenet_v2_x0_5", "mnasnet0_75", "regnet_y_400mf")
GRANITE_PLACEMENT_0836 = named("shufflenet_v2_x1_5", "mnasnet1_0", "efficientnet_b0")
GRANITE_CONVWAKE_1101 = named("mobilenet_v2", "regnet_y_800mf", "efficientnet_b1")
GRANITE_FRESH_PASS_PACE = (("dense-1500", GRANITE_DENSE_1500), ("thin-1530", GRANITE_THIN_1530),
                           ("remote-1530", GRANITE_REMOTE_1530), ("one-thread-1535", GRANITE_ONE_THREAD_1535))
GRANITE_AFTERNOON = (("fresh-1440", GRANITE_FRESH_1440), *GRANITE_FRESH_PASS_PACE)


# The Granite Rapids VM's four campaigns priced with the pace and a page census taken just
# before each, and its five repeats priced from its 00:52 profile.
GRANITE_ON_THE_DAY = (("census-1109", GRANITE_1109), ("batches-1134", GRANITE_1134), ("remote-1204", GRANITE_1109),
                      ("clients-1227", GRANITE_1109))
GRANITE_REPEATS = (("small-repeat-0136", GRANITE_0019), ("turns-repeat-0428", GRANITE_0258),
                   ("spin-repeat-0605", GRANITE_0540), ("settled-repeat-0720", GRANITE_0628),
                   ("paced-repeat-1008", GRANITE_0845))


def granite_campaigns(campaigns, suffix):
    """The group prefixes of several Granite Rapids campaigns ((campaign, networks) pairs),
    their case files' variant `suffix` (e.g. "-census", "-heap-model-calibrated-pace")."""
    return tuple(group for campaign, networks in campaigns for slug, _ in networks
                 for group in cpu_serving(f"devbox-xeon-granite-rapids-{slug}-{campaign}{suffix}"))


# The variants of a campaign on the freshly booted Granite Rapids VM: (label, case file suffix).
GRIDS_PACE = ("the same runs at the pace the grids gave just before", "-grids-pace")
OWN_PACE = ("the same runs at the calibration's own pace, with the census", "-calibrated-pace")
OPERATORS_PACE = ("the same runs by the rule before: the pace of ResNet-18's operators timed in a pass, the linear "
                  "layers' their own, both probed beside", "-operators-pace")
CALIBRATION_ALONE = ("the same runs from the calibration alone", "-heap-model-calibrated-pace")
# The campaigns priced by the median of four served passes, against the readings before it.
MEDIANS_VARIANTS = (("the same runs at the pace of ResNet-18 alone served just before (the rule before)",
                     "-resnet18-pace"),
                    ("the same runs at the pace of ResNet-18's operators timed in a pass, the linear layers' their "
                     "own, both probed beside", "-operators-pace"),
                    OWN_PACE)
# The campaign with a yardstick served before each network, against the readings before it.
YARDSTICKS_VARIANTS = (("the same runs at the first yardstick, served before the campaign (the rule before)",
                        "-first-yardstick"),
                       ("the same runs at the mean of the yardsticks before and after each network (not blind in "
                        "time)", "-bracketed"),
                       OWN_PACE)


def campaign_with_variants(label, campaign, networks, variants, machine):
    """A campaign's rows (networks_campaign), then a row over all its networks for each variant
    of the same runs ((label, case file suffix) pairs)."""
    return [*networks_campaign(label, campaign, networks, machine=machine),
            *((variant, networks_campaign(variant, campaign + suffix, networks, machine=machine)[0][1])
              for variant, suffix in variants)]


def fresh_granite_campaign(label, campaign, networks, variants=(GRIDS_PACE, CALIBRATION_ALONE)):
    """A campaign on the freshly booted Granite Rapids VM, with its variants."""
    return campaign_with_variants(label, campaign, networks, variants, machine="devbox-xeon-granite-rapids")


# The issues' accuracy goals, over the cases whose group starts with the prefix (but for
# the CPU's busy share and the server's phases, which no goal names): the MAPE, and how
# many cases are within 15%.
GOALS = [
    ("TensorFlow 2017's multi-GPU runs, images/s (issue 5: MAPE at most 10%)", ("gpu-train-multi/tensorflow-2017/",)),
    ("the same runs' scaling efficiency", ("gpu-scaling/tensorflow-2017/",)),
    ("serving on the Zen 5 VM, throughput and P99 (issue 6: every case within 15%)",
     cpu_serving("devbox-epyc-turin")),
    ("the same on a third machine, calibrated and then measured (Zen 4 Genoa, 2026-11-25)",
     cpu_serving("devbox-epyc-genoa")),
    ("the same on a fourth, calibrated and then measured (Zen 3 Milan, 2026-11-25 evening)",
     cpu_serving("devbox-epyc-milan")),
    ("the fourth again, the session after, measured blind once its speed trace was replayed",
     cpu_serving("devbox-epyc-milan-night")),
    ("the fourth's kind a day later (2026-11-26 morning), measured blind",
     cpu_serving("devbox-epyc-milan-morning")),
    ("the fourth's kind two hours later, measured blind with the server's phases",
     cpu_serving("devbox-epyc-milan-0630")),
    ("the fourth's kind at 08:48, measured blind once passes' threads were counted",
     cpu_serving("devbox-epyc-milan-0848")),
    ("the fourth's kind at 12:13, measured blind once a Python stack's bytes crossed outside its interpreter",
     cpu_serving("devbox-epyc-milan-1215")),
    ("the fourth's kind at 20:01, one thread, measured blind with the host's state kept",
     cpu_serving("devbox-epyc-milan-2001")),
    ("the same straight after, its batches in reverse order (batch 1 last)",
     cpu_serving("devbox-epyc-milan-2055")),
    ("the fourth's kind serving ResNet-50, a network no serving campaign had run, measured blind",
     cpu_serving("devbox-epyc-milan-resnet50")),
    ("the third machine's kind a day later (2026-11-26 21:57), measured blind from its first day's profiles",
     cpu_serving("devbox-epyc-genoa-2157")),
    ("the same runs predicted from the profiles the VM was calibrated with straight after them",
     cpu_serving("devbox-epyc-genoa-2157-recalibrated")),
    ("the same configurations an hour later, after that calibration, measured blind",
     cpu_serving("devbox-epyc-genoa-2256")),
    ("the third machine's kind serving ResNet-50, calibrated that day and then measured blind",
     cpu_serving("devbox-epyc-genoa-resnet50")),
    ("the third machine's kind six hours later (2026-11-27 05:09), measured blind, batch 1 on one thread run "
     "while the hypervisor stole 2-7%", cpu_serving("devbox-epyc-genoa-0510")),
    ("the same runs predicted from the profiles the VM was calibrated with straight after them",
     cpu_serving("devbox-epyc-genoa-0510-recalibrated")),
    ("the same configurations an hour later (06:01), measured blind, predicted from that calibration",
     cpu_serving("devbox-epyc-genoa-0601")),
    ("the same runs predicted from the calibration before it (2026-11-26 22:14)",
     cpu_serving("devbox-epyc-genoa-0601-dayold")),
    ("the same configurations half an hour later (06:35), measured blind, predicted from that calibration",
     cpu_serving("devbox-epyc-genoa-0635")),
    ("the same runs predicted from the calibration before it", cpu_serving("devbox-epyc-genoa-0635-dayold")),
    ("the same configurations at 08:12, measured blind after a calibration that timed the request-thread forward "
     "three times", cpu_serving("devbox-epyc-genoa-0812")),
    ("the same runs predicted from the 05:26 calibration", cpu_serving("devbox-epyc-genoa-0812-previous")),
    ("the same configurations straight after (08:27), measured blind", cpu_serving("devbox-epyc-genoa-0827")),
    ("the same runs predicted from the 05:26 calibration", cpu_serving("devbox-epyc-genoa-0827-previous")),
    ("the same configurations at 09:12, measured blind after a calibration that timed both ResNet-18 forwards "
     "three times, the VM slower than all morning", cpu_serving("devbox-epyc-genoa-0912")),
    ("the same runs predicted from the 07:51 calibration", cpu_serving("devbox-epyc-genoa-0912-previous")),
    ("batch 1 on two threads served by one client and by two (09:55), measured blind; the first check of one client "
     "(since then gRPC's pool thread counted from these runs' records, so no longer blind)",
     cpu_serving("devbox-epyc-genoa-concurrency")),
    ("one client and two at batch 1 and 8, in process and over both stacks on loopback (11:15), measured blind "
     "after a calibration taken just before, with gRPC's pool thread counted",
     cpu_serving("devbox-epyc-genoa-one-client-1115")),
    ("the same runs predicted from the 08:49 calibration", cpu_serving("devbox-epyc-genoa-one-client-1115-previous")),
    ("one client at batch 1 on two threads, in process and over both stacks, three rounds (11:27), measured blind",
     cpu_serving("devbox-epyc-genoa-one-client-rounds")),
    ("one client behind the 5 Gbit/s link and four clients on loopback, batches 1 and 8 on two threads (11:43), "
     "new configurations measured blind", cpu_serving("devbox-epyc-genoa-1143")),
    ("one client and two at batch 1 and 8 (13:41), measured blind after a calibration that timed operators inside "
     "whole passes", cpu_serving("devbox-epyc-genoa-1341")),
    ("the same runs priced from that calibration's loop-timed operators alone",
     cpu_serving("devbox-epyc-genoa-1341-loop")),
    ("ResNet-50 one client at batch 1 and 8 on two threads (13:49), measured blind after it",
     cpu_serving("devbox-epyc-genoa-resnet50-1341")),
    ("the same runs priced from loop-timed operators alone", cpu_serving("devbox-epyc-genoa-resnet50-1341-loop")),
    ("MobileNetV2, a network no calibration timed, one client at batch 1 and 8 (13:45), measured blind",
     cpu_serving("devbox-epyc-genoa-mobilenet-v2-1341")),
    ("the 13:41 configurations and one remote and four local clients at 14:19, measured blind, the VM slower than "
     "the calibration by 30-45%", cpu_serving("devbox-epyc-genoa-1420")),
    ("the same runs predicted from the calibration taken straight after them (14:28)",
     cpu_serving("devbox-epyc-genoa-1420-recalibrated")),
    ("the same configurations at 14:58, measured blind after that calibration", cpu_serving("devbox-epyc-genoa-1458")),
    *networks_campaign(
        "three networks no calibration timed, one client at batch 1 and 8 on one thread and two (16:26), measured "
        "blind after the 15:53 calibration (GoogLeNet's poolings since priced by their comparisons, found in its "
        "timings, and its loader's OpenMP team counted, found after)", "unseen-1626",
        [("mobilenet-v2", "MobileNetV2"), ("googlenet", "GoogLeNet"), ("resnet34", "ResNet-34")]),
    *networks_campaign(
        "Inception-v3, never timed, and GoogLeNet and ResNet-34 again, the same configurations (19:23), measured "
        "blind after the 18:48 calibration (the loaders' OpenMP teams as the harness recorded them; average poolings "
        "priced as max poolings, added after)", "unseen-1923",
        [("inception-v3", "Inception-v3"), ("googlenet", "GoogLeNet"), ("resnet34", "ResNet-34")]),
    *networks_campaign(
        "AlexNet, VGG-11 and ResNet-101, none served or timed before, one client at batch 1 and 8 on two threads "
        "and one (21:38), measured blind after the 21:04 calibration, its stalls pooled with the kind's earlier "
        "traces", "unseen-2138", UNSEEN_2138),
    networks_campaign("the same runs predicted from the 18:48 calibration, its stalls pooled the same way",
                      "unseen-2138-previous", UNSEEN_2138)[0],
    *networks_campaign(
        "VGG-13 (two threads and one) and ResNet-152 (two threads), neither served or timed before, one client at "
        "batch 1 and 8 (22:24), measured blind after the same calibration", "unseen-2224",
        named("vgg13", "resnet152")),
    networks_campaign(
        "the Zen 5 kind again on another host (2026-11-27 23:44, its TSC at 2.1 GHz), ResNet-18 in the 21 "
        "configurations of 2026-11-22 on one thread and two and ResNet-50 with one client, measured first and "
        "predicted from the 2026-11-22 profiles carried by the catalog's clock and peak, its pages at this host's "
        "write rates (timed at 00:21)", "2344-carried",
        named("resnet18", "resnet50"), machine="devbox-epyc-turin21")[0],
    networks_campaign("the same runs predicted from the calibration taken straight after them (00:21), with the "
                      "price of a page inside ResNet-18's passes timed at 03:00 added",
                      "2344-recalibrated", named("resnet18", "resnet50"),
                      machine="devbox-epyc-turin21")[0],
    *networks_campaign(
        "ResNet-34, VGG-11 and MobileNetV2, never timed or served on that host, one client at batch 1 and 8 on two "
        "threads and one (00:53), measured blind after that calibration (the page price inside passes added "
        "after, at 03:00)", "unseen-0053",
        named("resnet34", "vgg11", "mobilenet_v2"),
        machine="devbox-epyc-turin21"),
    *networks_campaign(
        "AlexNet, GoogLeNet and VGG-13, never timed or served on that host, one client at batch 1 and 8 on two "
        "threads and one (03:32), measured blind after the page price inside passes joined that calibration",
        "unseen-0332", named("alexnet", "googlenet", "vgg13"),
        machine="devbox-epyc-turin21"),
    *networks_campaign(
        "GoogLeNet and ResNet-34 again, on a fresh VM of that kind (11:28), the same configurations measured blind "
        "from the other instance's calibration", "1128", named("googlenet", "resnet34"),
        machine="devbox-epyc-turin21"),
    *networks_campaign(
        "Inception-v3 and VGG-16, never served on that VM kind (VGG-16 on none), the same configurations (13:41), "
        "measured blind from the same calibration after the heap-state band was set", "1341",
        named("inception_v3", "vgg16"), machine="devbox-epyc-turin21"),
    *networks_campaign(
        "ResNet-18 and MobileNetV2 at batches 4 and 16, ResNet-50 at 4 (batch sizes no CPU campaign served) and 1, "
        "the same deployments (16:20), measured blind from the same calibration",
        "1620", ZEN5_1620, machine="devbox-epyc-turin21"),
    *networks_campaign(
        "the same 48 configurations an hour later (17:16), measured blind again", "1716", ZEN5_1620,
        machine="devbox-epyc-turin21"),
    *networks_campaign(
        "ResNet-101, ResNet-152 and VGG-19, never served on that VM kind, at batch 1 and ResNet-34 at 4, the same "
        "deployments (19:48), measured blind after this instance's own calibration (19:12-19:48, its two-minute "
        "stall trace pooled with 00:21's)", "1950", ZEN5_1950, machine="devbox-epyc-turin21"),
    networks_campaign("the same runs predicted from the other instance's calibration (00:21), as the campaigns of "
                      "11:28-17:16 were", "1950-previous", ZEN5_1950, machine="devbox-epyc-turin21")[0],
    *networks_campaign(
        "VGG-19, ResNet-34 and ResNet-101 of those measured three times more (21:36-21:57), each run a fresh "
        "server process, blind from the same calibration; the host slow from 21:37 to about 21:50", "repeats-2136",
        ZEN5_REPEATS, machine="devbox-epyc-turin21"),
    *[networks_campaign(f"{label}, each pass priced at the pages its stack was counted to fault (the page census "
                        "of 22:19, system.pass_page_faults) instead of the heap model's", f"{campaign}-census", networks,
                        machine="devbox-epyc-turin21")[0]
      for label, campaign, networks in (("the 19:48 campaign", "1950", ZEN5_1950),
                                        ("its three repeats", "repeats-2136", ZEN5_REPEATS),
                                        ("the 16:20 campaign", "1620", ZEN5_1620),
                                        ("the 17:16 campaign", "1716", ZEN5_1620))],
    *networks_campaign(
        "ResNet-34 and MobileNetV2 at batches 1 and 8 on one thread, the same deployments and asynchronous gRPC "
        "(2026-11-29 03:55), measured blind after the Python stacks were timed as they serve (each request after "
        "20 ms idle, answered after a ResNet-18 pass)", "stacks-0356", ZEN5_STACKS, machine="devbox-epyc-turin21"),
    networks_campaign("the same runs predicted with the stacks as timed at 19:12 (back to back, a bare server)",
                      "stacks-0356-bare", ZEN5_STACKS, machine="devbox-epyc-turin21")[0],
    networks_campaign("ResNet-18 at batches 8 and 32 on one thread, in process, over HTTP, gRPC and asynchronous gRPC "
                      "on loopback and behind the 5 Gbit/s veth link (06:18), measured blind after the same stacks",
                      "stacks-0620", named("resnet18"), machine="devbox-epyc-turin21")[0],
    networks_campaign("the same runs predicted with the stacks as timed at 19:12", "stacks-0620-bare",
                      named("resnet18"), machine="devbox-epyc-turin21")[0],
    *networks_campaign(
        "ResNet-34 and GoogLeNet at batch 16 on one thread, in process and over HTTP, gRPC and asynchronous gRPC "
        "(07:06), each pass priced at the pages a page census counted on its stack before the runs (07:04), "
        "measured blind", "census-first-0706", ZEN5_CENSUS_FIRST, machine="devbox-epyc-turin21"),
    networks_campaign("the same runs priced with the heap model's pages", "census-first-0706-model",
                      ZEN5_CENSUS_FIRST, machine="devbox-epyc-turin21")[0],
    *networks_campaign(
        "ResNet-18 and VGG-11 at batch 8 on two threads, the same four deployments (07:45), priced from a page census "
        "taken before the runs (07:43), measured blind", "census-first-0745", ZEN5_CENSUS_FIRST_2,
        machine="devbox-epyc-turin21"),
    networks_campaign("the same runs priced with the heap model's pages", "census-first-0745-model",
                      ZEN5_CENSUS_FIRST_2, machine="devbox-epyc-turin21")[0],
    *networks_campaign(
        "six networks known only by their ONNX export, never served or timed on a CPU, at batches 1 and 8 on two "
        "threads and one, the same four deployments (2026-11-29 09:15), measured blind", "onnx-0915", ONNX_NETWORKS,
        machine="devbox-epyc-turin21"),
    *networks_campaign("the same runs, each pass priced at the pages a page census taken straight after them (09:40) "
                       "counted on its stack", "onnx-0915-census", ONNX_NETWORKS, machine="devbox-epyc-turin21"),
    *networks_campaign("the same configurations again straight after that census (10:00), measured blind",
                       "onnx-1000", ONNX_NETWORKS, machine="devbox-epyc-turin21"),
    *networks_campaign("the same runs priced from that census, committed before them: blind", "onnx-1000-census",
                       ONNX_NETWORKS, machine="devbox-epyc-turin21"),
    *networks_campaign("the same six networks on the Zen 3 Milan VM (2026-11-29 13:21), measured blind after the VM "
                       "was calibrated (12:30; priced since with its activations timed at 16:15 and its page price "
                       "at 18:53)", "onnx-1322", ONNX_NETWORKS, machine="devbox-epyc-milan"),
    networks_campaign("the same runs, each pass priced at the pages the Zen 5 VM's census of 09:40 counted: blind, "
                      "another CPU's census", "onnx-1322-turin-census", ONNX_NETWORKS, machine="devbox-epyc-milan")[0],
    networks_campaign("the same runs predicted from the kind's first calibration (2026-11-25), not this VM's own",
                      "onnx-1322-profile-1125", ONNX_NETWORKS, machine="devbox-epyc-milan")[0],
    networks_campaign("the same configurations again straight after (14:01), measured blind", "onnx-1401",
                      ONNX_NETWORKS, machine="devbox-epyc-milan")[0],
    networks_campaign("the same runs priced at the pages the 13:21 campaign counted on each stack: blind, this VM "
                      "kind's census", "onnx-1401-census", ONNX_NETWORKS, machine="devbox-epyc-milan")[0],
    *networks_campaign("three networks never served or timed on a Milan (19:19), measured blind after the page's "
                       "price was taken again", "unseen-1919", MILAN_1919, machine="devbox-epyc-milan"),
    *networks_campaign("two thin networks never served or timed on any VM (21:52), measured blind", "thin-2153",
                       MILAN_THIN_2153, machine="devbox-epyc-milan"),
    networks_campaign("seven networks in process on two threads, three rounds a configuration (2026-11-30 01:42), "
                      "measured blind, a case at their median", "repeats-0142", MILAN_REPEATS_0142,
                      machine="devbox-epyc-milan")[0],
    *networks_campaign("four networks never served on a Milan, two of them on no VM, one client at batch 1 and 8 on "
                       "two threads and one (2026-11-30 04:09), measured blind", "blind-0409", MILAN_BLIND_0409,
                       machine="devbox-epyc-milan"),
    *networks_campaign("the same configurations straight after (05:02), measured blind", "repeat-0502",
                       MILAN_BLIND_0409, machine="devbox-epyc-milan"),
    *networks_campaign("three networks never served on a Milan (on the Zen 4 and Zen 5 VMs only), one client at "
                       "batch 1 and 8 on two threads and one (2026-11-30 07:23), measured blind once a run's P99 was "
                       "taken over consecutive requests", "blind-0723", MILAN_BLIND_0723, machine="devbox-epyc-milan"),
    *networks_campaign("clients that read their images from JPEG files and decode them before each send, two "
                       "clients (or two requests in flight) at batches 1, 8 and 32 on two threads and one, and in "
                       "process from tensors (2026-11-30 09:50), measured blind with the VM's own input calibration",
                       "files-0950", MILAN_FILES_0950, machine="devbox-epyc-milan"),
    ("ResNet-18 to the same file-reading clients at batches 16 and 64 on two threads, locally and behind the 5 "
     "Gbit/s link (2026-11-30 10:35), measured blind", cpu_serving("devbox-epyc-milan-files-1034")),
    ("a fifth machine kind, an Intel Xeon 6 (Granite Rapids, 2026-11-30 13:33), calibrated and then measured blind",
     cpu_serving("devbox-xeon-granite-rapids")),
    ("the same runs predicted as for an uncalibrated CPU: the Emerald Rapids VM's profiles carried by the catalog",
     cpu_serving("devbox-xeon-granite-rapids-carried-from-emerald-rapids")),
    *networks_campaign("the fifth kind straight after (13:50): ResNet-18 to clients that read JPEG files, batches 1, "
                       "8 and 32 on two threads and one, then MobileNetV2 on two, measured blind", "1350",
                       GRANITE_1350, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the fifth kind at 14:18: ResNet-50 and VGG-11 at batches 1 and 8 on two threads, in process "
                       "and locally, measured blind (priced since by the linear fits its VGG-11 pointed at)", "1418",
                       GRANITE_1418, machine="devbox-xeon-granite-rapids"),
    ("the fifth kind's 21 configurations' two-thread half again (14:26), measured blind",
     cpu_serving("devbox-xeon-granite-rapids-repeat-1425")),
    *networks_campaign("the fifth kind at 15:36, once its linear fits priced weights beyond 32 MiB as read for "
                       "every sample: AlexNet and VGG-13 at batches 1 and 8 on two threads and one, in process and "
                       "locally, measured blind from that fit (priced since by its successor, which saw them)",
                       "1540", GRANITE_1540, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the fifth kind at 16:04, measured blind from the successor (those weights not also a cost "
                       "the batch shares): AlexNet and VGG-16 on two threads and one", "1604", GRANITE_1604,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its one-thread half again (17:02), measured blind", "repeat-1703", GRANITE_1703,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the fifth kind at 19:03: GoogLeNet and Inception-v3, never timed on it, at batches 1 and 8 "
                       "on two threads and one, in process and locally, measured blind (11.5%, 37; priced since with "
                       "average poolings, concatenations and thin convolutions timed, none at their shapes)", "1915",
                       GRANITE_1915, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (20:18), measured blind once average poolings were timed (11.6%, "
                       "20; concatenations and thin convolutions timed since)",
                       "repeat-2019", GRANITE_1915, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the fifth kind at 21:49: DenseNet-121, ShuffleNetV2 1.0x and SqueezeNet 1.1, known only by "
                       "their ONNX export and never served or timed on it, at batches 1 and 8 on two threads and one, "
                       "in process and locally, measured blind once concatenations were timed (14.7%, 51; priced "
                       "since with thin convolutions timed, none at their shapes)", "concat-2149", GRANITE_2149,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (22:22), measured blind once thin convolutions were timed",
                       "repeat-2223", GRANITE_2149, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("EfficientNet-B0, MobileNetV3-Large and RegNetY-400MF, thin networks known only by their ONNX "
                       "export and never served or timed on the fifth kind, the same configurations (22:26), measured "
                       "blind from the same profile", "thin-2223", GRANITE_2223, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("MobileNetV3-Small, RegNetX-400MF and MNASNet 1.0, never served or timed on the fifth kind, "
                       "the same configurations (23:51), measured blind from the same profile (26.4%, 38; priced since "
                       "with squeeze-and-excitation blocks timed)", "se-2351", GRANITE_2351,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("MNASNet 0.5 and ShuffleNetV2 0.5x, never served or timed on the fifth kind, the same "
                       "configurations (2026-12-01 00:19), measured blind once squeeze-and-excitation blocks were "
                       "timed, the VM 15-20% faster than at its calibration", "small-0019", GRANITE_0019,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the same runs priced from the VM's calibration taken half an hour after them (00:52)",
                       "small-0019-recalibrated", GRANITE_0019, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the same configurations again (01:36), measured blind from that calibration (9.0%, 43; priced "
                       "since with passes taking turns, then on a shared core, timed)",
                       "small-repeat-0136", GRANITE_0019, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the 23:51 runs priced from that calibration, an hour after them", "se-2351-recalibrated",
                       GRANITE_2351, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("MNASNet 0.75, ShuffleNetV2 1.5x and ResNet-34, never served or timed on the fifth kind, the "
                       "same configurations (02:57), measured blind once passes taking turns on two request threads "
                       "were timed and added to that calibration (6.2%, 74; priced since with passes on a shared "
                       "core timed)", "turns-0258", GRANITE_0258, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (04:27), measured blind from the same profile (9.9%, 31; priced "
                       "since the same way)", "turns-repeat-0428", GRANITE_0258, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("SqueezeNet 1.0 and RegNetY-800MF, never served or timed on the fifth kind, the same "
                       "configurations (03:55), measured blind from the same profile (5.9%, 54; priced since the "
                       "same way)", "turns-0356", GRANITE_0356, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("MNASNet 1.3, RegNetX-800MF and ShuffleNetV2 2.0x, never served or timed on the fifth kind, "
                       "the same configurations (05:39), measured blind once a team's spin was timed (16.2%, 55; "
                       "priced since with passes on a shared core timed)", "spin-0540", GRANITE_0540,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (06:01), measured blind from the same profile (12.8%, 25; priced "
                       "since the same way)", "spin-repeat-0605", GRANITE_0540, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("EfficientNet-B1, RegNetY-1.6GF and RegNetX-1.6GF, never served or timed on the fifth kind, the "
                       "same configurations (06:27), measured blind once passes on a shared core were timed and a "
                       "pass taking turns settles between that place and its team apart", "settled-0628",
                       GRANITE_0628, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (07:19), measured blind from the same profile", "settled-repeat-0720",
                       GRANITE_0628, machine="devbox-xeon-granite-rapids"),
    *networks_campaign("EfficientNet-B2, RegNetY-3.2GF and ResNeXt-50 32x4d, never served or timed on the fifth kind, "
                       "the same configurations (08:45), measured blind from the same profile at the VM's pace probed "
                       "before the runs (0.93 of its calibration's: system.cpu_pace)", "paced-0845", GRANITE_0845,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("the same runs at the calibration's own pace", "paced-0845-calibrated-pace", GRANITE_0845,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("its two-thread half again (10:07), measured blind from the same profile at the pace probed "
                       "before the runs (0.97; 13.3%, 24 at the calibration's)", "paced-repeat-1008", GRANITE_0845,
                       machine="devbox-xeon-granite-rapids"),
    *networks_campaign("EfficientNet-B3, DenseNet-169 and RegNetX-3.2GF, never served or timed on the fifth kind, "
                       "batches 1 and 8 on two threads (11:09), measured blind from the same profile at the pace "
                       "probed and with a page census of the same configurations taken just before the runs "
                       "(system.pass_page_faults)", "census-1109", GRANITE_1109, machine="devbox-xeon-granite-rapids"),
    networks_campaign("the same runs with neither: the heap model's count at the calibration's own pace",
                      "census-1109-heap-model-calibrated-pace", GRANITE_1109, machine="devbox-xeon-granite-rapids")[0],
    *networks_campaign("EfficientNetV2-S and Wide ResNet-50-2, never served or timed on any VM, and MobileNetV3-"
                       "Large, at batches 4 and 16 on two threads (11:34), measured blind the same way",
                       "batches-1134", GRANITE_1134, machine="devbox-xeon-granite-rapids"),
    networks_campaign("the same runs with neither", "batches-1134-heap-model-calibrated-pace", GRANITE_1134,
                      machine="devbox-xeon-granite-rapids")[0],
    *networks_campaign("EfficientNet-B3, DenseNet-169 and RegNetX-3.2GF again, their clients behind the 5 Gbit/s "
                       "link (12:05), measured blind the same way", "remote-1204", GRANITE_1109,
                       machine="devbox-xeon-granite-rapids"),
    networks_campaign("the same runs with neither", "remote-1204-heap-model-calibrated-pace", GRANITE_1109,
                      machine="devbox-xeon-granite-rapids")[0],
    *networks_campaign("the same three to four clients each on the same VM (12:27), measured blind the same way, the "
                       "pace moving from 1.02 to 0.99 during the runs", "clients-1227", GRANITE_1109,
                       machine="devbox-xeon-granite-rapids"),
    networks_campaign("the same runs with neither", "clients-1227-heap-model-calibrated-pace", GRANITE_1109,
                      machine="devbox-xeon-granite-rapids")[0],
    ("the four campaigns since 11:09 together, each priced at the pace and from the census taken just before it",
     granite_campaigns(GRANITE_ON_THE_DAY, "")),
    ("the same runs from the calibration alone (the heap model's count at the calibration's pace)",
     granite_campaigns(GRANITE_ON_THE_DAY, "-heap-model-calibrated-pace")),
    ("the fifth kind's five repeats since 01:36 together, as priced above (the heap model's count)",
     granite_campaigns(GRANITE_REPEATS, "")),
    ("the same runs, each pass priced at the pages its configuration faulted in the campaign it repeats (a census "
     "of those runs)", granite_campaigns(GRANITE_REPEATS, "-census")),
    *fresh_granite_campaign("the fifth kind's VM freshly booted (up 40 minutes): ResNet-50, ResNet-101 and "
                            "EfficientNet-B4 at batches 1 and 8 on two threads (14:38), measured blind from the "
                            "earlier VM's 00:52 profile at the pace its grids gave and with a page census, both taken "
                            "just before the runs", "fresh-1440", GRANITE_FRESH_1440,
                            (("the same runs at the pace of ResNet-18's pass, probed two minutes after them (not "
                              "blind)", "-pass-pace"), CALIBRATION_ALONE)),
    *fresh_granite_campaign("ResNet-152, VGG-19, MobileNetV2 and ShuffleNetV2 1.0x on the same VM (15:02), measured "
                            "blind the same way at the pace of ResNet-18's pass, probed just before with the grids",
                            "dense-1500", GRANITE_DENSE_1500),
    *fresh_granite_campaign("EfficientNet-B0, RegNetY-400MF, GoogLeNet and DenseNet-121 on the same VM (15:12), "
                            "measured blind the same way, the pace as probe_pace.sh now takes it (ResNet-18's pass)",
                            "thin-1530", GRANITE_THIN_1530),
    *fresh_granite_campaign("ResNet-50, ResNet-101 and MobileNetV2 on the same VM, their clients behind the 5 Gbit/s "
                            "link (15:24), measured blind the same way", "remote-1530", GRANITE_REMOTE_1530),
    *fresh_granite_campaign("ResNet-50, EfficientNet-B0 and DenseNet-121 on the same VM on one thread (15:39), measured "
                            "blind the same way", "one-thread-1535", GRANITE_ONE_THREAD_1535),
    *fresh_granite_campaign("ConvNeXt-T, channels-last blocks whose linear layers the profile never timed at more "
                            "than 128 rows, at batches 1 and 4 on two threads on the same VM (18:47), measured blind "
                            "the same way", "convnext-1842", GRANITE_CONVNEXT_1842,
                            (GRIDS_PACE, CALIBRATION_ALONE,
                             ("the same runs from the VM calibrated after them (19:23), the first profile timing linear "
                              "layers of many rows, at the pace of ResNet-18's pass probed before them", "-recalibrated"),
                             ("the same, at the pace the grids gave", "-recalibrated-grids-pace"),
                             ("the same, at that calibration's own pace", "-recalibrated-calibrated-pace"))),
    *fresh_granite_campaign("ConvNeXt-S (GEMM-bound) at batches 1 and 2 and ResNet-50 at 1 and 8 on two threads on the "
                            "same VM (21:16), measured blind from its own 19:25 calibration at ResNet-18's pass's pace "
                            "probed before, with a census", "kinds-2115", GRANITE_KINDS_2115,
                            (("the same runs with the linear layers at their own pace probed beside the pass "
                              "(system.cpu_pace_by_op; the rule chosen after these runs)", "-linear-pace"),
                             GRIDS_PACE, OWN_PACE)),
    *fresh_granite_campaign("VGG-11 and AlexNet (mostly linear layers) and RegNetY-1.6GF on the same VM (21:36), "
                            "measured blind from the 19:25 calibration at ResNet-18's pass's pace with the linear "
                            "layers at their own, both probed before, with a census", "linears-2135",
                            GRANITE_LINEARS_2135,
                            (("the same runs at the pass's pace for every kernel (the rule before)", "-pass-pace"),
                             GRIDS_PACE, OWN_PACE)),
    *fresh_granite_campaign("ResNeXt-50 32x4d, DenseNet-169 and MobileNetV3-Large on the same VM (23:40), measured "
                            "blind from the 19:25 calibration at the pace of ResNet-18 served in process just before "
                            "(calibration/reference_pace.py, its passes priced without page faults), with a census",
                            "served-2337", GRANITE_SERVED_2337,
                            (("the same runs at the pace the served ResNet-18 read with its passes' page faults priced "
                              "(the fix made after these runs)", "-census-pace"), OPERATORS_PACE, OWN_PACE)),
    *fresh_granite_campaign("ResNet-34, EfficientNet-B2 and RegNetX-3.2GF on the same VM (23:50), measured blind at "
                            "the pace of ResNet-18 served in process just before, its passes priced with their page "
                            "faults, with a census", "served-2347", GRANITE_SERVED_2347, (OPERATORS_PACE, OWN_PACE)),
    *fresh_granite_campaign("RegNetY-3.2GF, EfficientNet-B1 and ShuffleNetV2 2.0x on one thread and on two on the "
                            "same VM (00:12), measured blind at the pace of ResNet-18 served in process on each thread "
                            "count just before, with a census", "threads-0002", GRANITE_THREADS_0002,
                            (OPERATORS_PACE, OWN_PACE)),
    *fresh_granite_campaign("GoogLeNet, MNASNet 1.0 and RegNetX-400MF on one thread and on two on the same VM (02:18), "
                            "measured blind at the median pace of ResNet-18 at batches 1 and 8 and ResNet-50 at 4 and 8 "
                            "served in process on each thread count just before, with a census", "medians-0211",
                            GRANITE_MEDIANS_0211, MEDIANS_VARIANTS),
    *fresh_granite_campaign("EfficientNet-B0, SqueezeNet 1.1 and RegNetY-800MF on one thread and on two on the same VM "
                            "(02:57), measured blind by the same rule, the VM faster (1.06 and 1.09)", "medians-0250",
                            GRANITE_MEDIANS_0250, MEDIANS_VARIANTS),
    *fresh_granite_campaign("MobileNetV3-Small, ResNet-34 and Inception-v3 on one thread and on two on the same VM "
                            "(03:42), measured blind by the same rule, the VM speeding up during the runs",
                            "medians-0333", GRANITE_MEDIANS_0333, MEDIANS_VARIANTS),
    *fresh_granite_campaign("ShuffleNetV2 1.0x, MNASNet 0.5 and MobileNetV3-Large on one thread and on two on the "
                            "same VM (05:05), 160 requests a batch-1 configuration, each network measured blind at "
                            "the median of four served passes (a yardstick) taken just before its own runs, with a "
                            "census", "yardsticks-0505", GRANITE_YARDSTICKS_0505, YARDSTICKS_VARIANTS),
    *fresh_granite_campaign("ShuffleNetV2 0.5x, MNASNet 0.75 and RegNetY-400MF on the same VM (05:55), measured blind "
                            "by the same rule", "yardsticks-0555", GRANITE_YARDSTICKS_0555, YARDSTICKS_VARIANTS),
    *fresh_granite_campaign("ShuffleNetV2 1.5x, MNASNet 1.0 and EfficientNet-B0 on the same VM (08:36), measured blind "
                            "by the same rule once each served pass taking turns draws whether its team runs apart",
                            "placement-0836", GRANITE_PLACEMENT_0836, YARDSTICKS_VARIANTS),
    *fresh_granite_campaign("MobileNetV2, RegNetY-800MF and EfficientNet-B1 on the same VM (11:01), measured blind by "
                            "the same rule once the profile's convolution fits price their parallel regions' wakes",
                            "convwake-1101", GRANITE_CONVWAKE_1101, YARDSTICKS_VARIANTS),
    *fresh_granite_campaign("the same three networks again on the same VM (13:34), measured blind by the same rule "
                            "(how the 11:01 runs themselves predict these: validation/REPORT.md)",
                            "repeat-1335", GRANITE_CONVWAKE_1101, YARDSTICKS_VARIANTS),
    *campaign_with_variants("the same three networks on the Zen 5 Turin VM at 2.6 GHz (2026-12-02 17:09), measured "
                            "blind by the same rule straight after the VM's calibration (16:18)", "blind-1710",
                            GRANITE_CONVWAKE_1101, YARDSTICKS_VARIANTS, machine="devbox-epyc-turin"),
    ("the fresh VM's four campaigns priced at the pace of ResNet-18's pass probed just before, with a census",
     granite_campaigns(GRANITE_FRESH_PASS_PACE, "")),
    ("the same runs at the pace the grids gave", granite_campaigns(GRANITE_FRESH_PASS_PACE, "-grids-pace")),
    ("the fresh VM's five afternoon campaigns (14:38-15:39) priced from its own calibration taken after them "
     "(19:23), at the pace their probes before gave against it (0.91-0.98), with their censuses",
     granite_campaigns(GRANITE_AFTERNOON, "-recalibrated")),
    ("the same runs at that calibration's own pace", granite_campaigns(GRANITE_AFTERNOON, "-recalibrated-calibrated-pace")),
    *[row for campaign, label in (
        ("0035", "open loops on the Zen 5 VM (00:35), the first measured: ResNet-18 at batch 1 on one thread over "
                 "HTTP and gRPC, Poisson then constant arrivals at 6-22 requests a second, measured blind from the "
                 "19:12 calibration; throughput, P50 and P99, Poisson from dlsim's own draw"),
        ("0045", "the same open loops straight after (00:45), constant arrivals first"),
        ("r34-0123", "ResNet-34 at batch 1, a network no open loop had served, at 3-12 requests a second (01:23), "
                     "measured blind after the open loop's latency band was added"),
        ("remote-0210", "ResNet-18 at batch 1 again, its clients behind the 5 Gbit/s veth pair (02:10), measured "
                        "blind, the host slow through the Poisson runs"),
        ("r34-0423", "ResNet-34 at batch 1 again, 150 requests a rate (04:16), measured blind after the Python stacks "
                     "were timed as they serve"),
        ("r34-0423-bare", "the same runs predicted with the stacks as timed at 19:12 (back to back, a bare server)"))
      for row in ((label, open_loop(campaign, "poisson-throughput", "poisson-p", "constant-throughput", "constant-p")),
                  ("the same Poisson runs, each predicted replaying the gaps its client drew",
                   open_loop(campaign, "poisson-replayed-throughput", "poisson-replayed-p")))],
    ("PyTorch on one H200, predicted from the kernels it timed (issue 8: mean under 5%, no case over 10%)",
     ("gpu-train/h200-pytorch-2.11/", "gpu-infer/h200-pytorch-2.11/")),
    ("the same H200 serving in-process, throughput and P99 (issue 6: every case within 15%)",
     ("gpu-serve/in-process/h200-pytorch-2.11/", "gpu-serve/in-process/h200-serving-harness/")),
    ("the same H200 serving over Python's HTTP and gRPC on loopback, four clients (issue 6)",
     ("gpu-serve/local/h200-pytorch-2.11/",)),
    ("the same, one client (issue 6)", ("gpu-serve/local-one-client/h200-pytorch-2.11/",)),
    ("the same H200 serving in process and over both stacks, one and four clients, with the server's clocks, "
     "10:56 (issue 6)", ("gpu-serve/in-process/h200-1056/", "gpu-serve/local/h200-1056/")),
    ("the same machine six minutes later, its host slower (issue 6)",
     ("gpu-serve/in-process/h200-1102/", "gpu-serve/local/h200-1102/")),
    ("an H100 machine of the same host kind serving the same, from its own operators and stacks timed on the lease "
     "(issue 6)", ("gpu-serve/in-process/h100-1641/", "gpu-serve/local/h100-1641/")),
    ("the same H100 seven minutes later (issue 6)", ("gpu-serve/in-process/h100-1648/", "gpu-serve/local/h100-1648/")),
    ("another H100 machine two hours later, blind, its host's stacks timed 45-70% slower (issue 6)",
     ("gpu-serve/in-process/h100-1856/", "gpu-serve/local/h100-1856/")),
    ("a third H100 machine the next day, blind (issue 6)",
     ("gpu-serve/in-process/h100-0027/", "gpu-serve/local/h100-0027/")),
    ("a fourth ten minutes later, batch 1, blind (issue 6)",
     ("gpu-serve/in-process/h100-0036/", "gpu-serve/local/h100-0036/")),
    ("a fifth H100 machine two hours later (02:34), blind (issue 6)",
     ("gpu-serve/in-process/h100-0234/", "gpu-serve/local/h100-0234/")),
    ("a sixth twenty minutes later, batches 1 and 8, blind (issue 6)",
     ("gpu-serve/in-process/h100-0254/", "gpu-serve/local/h100-0254/")),
    ("the last five H100 machines served, their hosts' launches at the pace their pinned passes showed on the "
     "lease, each pass drawn from their spread on one vCPU, a pass handed between threads at the pace the "
     "lease's turns showed where it ran them (02:31 and 02:53), else at its slow tenth, and their stacks timed "
     "there (issue 6)",
     ("gpu-serve/local/h100-1856-day/", "gpu-serve/local/h100-0027-day/", "gpu-serve/local/h100-0036-day/",
      "gpu-serve/local/h100-0234-day/", "gpu-serve/local/h100-0254-day/")),
    ("the last four H100 machines, in process and served, predicted before they were mapped: their hosts' pace, "
     "spread and turns (else the slow tenth) pooled from the leases before each (validation/host_pace.py over "
     "every earlier map), the latest earlier stacks (issue 6)",
     tuple(f"gpu-serve/{deployment}/h100-{lease}-history/" for lease in ("0027", "0036", "0234", "0254")
           for deployment in ("in-process", "local"))),
    ("two fresh H200 machines of the same host kind (18:09, all 21 configurations; 18:17, batches 1 and 8), "
     "blind, as the H200's earlier leases are predicted (its host at 18.5 us a launch, its stacks of 2026-11-26) "
     "(issue 6)",
     tuple(f"gpu-serve/{deployment}/h200-{lease}/" for lease in ("1809", "1817")
           for deployment in ("in-process", "local"))),
    ("the same two, predicted before they were mapped: every earlier map of the host kind pooled (the H100s', "
     "then the 18:07 H200's too), the latest earlier stacks (issue 6)",
     tuple(f"gpu-serve/{deployment}/h200-{lease}-history/" for lease in ("1809", "1817")
           for deployment in ("in-process", "local"))),
    ("the same two served, from their own maps, turns and stacks timed on the lease (issue 6)",
     ("gpu-serve/local/h200-1809-day/", "gpu-serve/local/h200-1817-day/")),
    ("ResNet-152 and VGG-16, never served from a GPU before, on a fresh H200 machine of the same host kind "
     "(2026-11-30 18:32), predicted before it was mapped: every earlier map of the host kind pooled, the latest "
     "earlier stacks (issue 6)",
     ("gpu-serve/in-process/h200-1832-history/", "gpu-serve/local/h200-1832-history/")),
    ("the same, blind as the H200's earlier leases are predicted (its host at 18.5 us a launch, its stacks of "
     "2026-11-26) (issue 6)",
     ("gpu-serve/in-process/h200-1832/", "gpu-serve/local/h200-1832/")),
    ("the same served, from its own map, turns and stacks timed on the lease (issue 6)",
     ("gpu-serve/local/h200-1832-day/",)),
    ("the fourth's one-thread runs predicted from the Zen 4's calibration, carried by the catalog",
     ("cpu-serve/in-process/devbox-epyc-milan-carried-from-genoa/",
      "cpu-serve/local/devbox-epyc-milan-carried-from-genoa/",
      "cpu-serve/remote-5gbps/devbox-epyc-milan-carried-from-genoa/")),
]


SERVER_PHASES = ("server-compute", "server-queue")  # an open loop's: poisson-server-queue


def is_phase(case):
    """A served request's mean wait or compute on the server (validation/serving_phases.py)."""
    return case["group"].endswith(SERVER_PHASES)


def goals(cases):
    out = "| goal | cases | MAPE | within 15% |\n|---|---:|---:|---:|\n"
    for label, prefixes in GOALS:
        errors = [abs(c["error_pct"]) for c in cases if c["group"].startswith(prefixes)
                  and "cpu-busy" not in c["group"] and not is_phase(c) and c.get("error_pct") is not None]
        if errors:
            out += (f"| {label} | {len(errors)} | {sum(errors) / len(errors):.1f}% | "
                    f"{sum(e <= 15 for e in errors)} |\n")
    return out


def report(doc):
    """Every group, then every case: CPU, served CPU, open loops, server phases, GPU."""
    groups = "| group | cases | MAPE | max | band coverage | bound | |\n|---|---:|---:|---:|---:|---:|:-:|\n"
    for g in doc["groups"]:
        groups += (f"| {g['name']} | {g['n']} | {g['mape_pct']:.1f}% | {g['max_pct']:.1f}% | "
                   f"{g['band_coverage_pct']:.0f}% | {g['bound_mape_pct']:.0f}% | "
                   f"{'pass' if g['passes'] else 'FAIL'} |\n")
    cpu = [c for c in doc["cases"] if c["group"].startswith("cpu-") and not c["group"].startswith("cpu-serve/")]
    serve = [c for c in doc["cases"] if c["group"].startswith("cpu-serve/") and not is_phase(c)
             and "-open/" not in c["group"]]
    open_loops = [c for c in doc["cases"] if c["group"].startswith("cpu-serve/") and "-open/" in c["group"]
                  and not is_phase(c)]
    phases = [c for c in doc["cases"] if c["group"].startswith(("cpu-serve/", "gpu-serve/")) and is_phase(c)]
    gpu = [c for c in doc["cases"]
           if c["group"].startswith("gpu-") and not c["group"].startswith("gpu-kernel/") and not is_phase(c)]
    return (groups + "\n" + calibration_columns(cpu) + "\n" +
            calibration_columns(serve) + "\n" + plain(open_loops) + "\n" + plain(phases) + "\n" + plain(gpu))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dlsim", help="the dlsim executable (build/sim/cli/dlsim)")
    ap.add_argument("--check", action="store_true", help="exit 1 if either file is stale; rewrite nothing")
    args = ap.parse_args()
    if not os.access(args.dlsim, os.X_OK):
        print(f"prediction_table: {args.dlsim}: expected the dlsim executable (build it: cd build && ninja)",
              file=sys.stderr)
        return 2
    out = subprocess.run([args.dlsim, "validate", "--format", "json"], capture_output=True, text=True)
    if not out.stdout:
        print(out.stderr)
        return 1
    doc = json.loads(out.stdout)
    command, check = "validation/prediction_table.py build/sim/cli/dlsim", args.check
    status = max(update("validation-table", goals(doc["cases"]), check, command),
                 update("validation-report", report(doc), check, command, "validation/REPORT.md"))
    if out.returncode != 0:  # a group past its committed bound (the table marks it FAIL)
        failing = ", ".join(g["name"] for g in doc["groups"] if not g["passes"])
        print(f"prediction_table: dlsim validate exited {out.returncode}; over their bound: {failing}",
              file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
