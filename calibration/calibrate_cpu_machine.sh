#!/usr/bin/env bash
# The whole calibration of a CPU machine that will train and serve, as every development VM
# has been calibrated (calibration/README.md): PyTorch's operators for five networks on 1
# and 2 threads (every phase), eight activations, the average pooling, the concatenation and
# thin convolutions on grids of sizes, ResNet-18's inference forward on a request thread,
# the five networks' inference forwards timed inside whole passes on the main thread, on a
# request thread, on two request threads taking turns and on a request thread whose team
# shares its core (kernels/pytorch/in_pass.py), the
# grids (calibration/grids.sh) inside passes of them too, the served network's
# (ResNet-18's) inference forwards timed again, each way, at the start and at the end (the
# fit pools each phase's three samples: a VM's pace drifts over twenty minutes, and one
# sample priced ResNet-18's two-thread batch 8 anywhere in 34-41 images/s while the runs in
# process kept to 40-45), the price of a page faulted afresh alone and inside ResNet-18's
# passes (kernels/pytorch/page_price.py), the
# wake-up of a thread team and how long its idle threads spin before they sleep, a trace of
# the stalls that hold a team up and of its speed
# between (pooled in the profile with the traces of the kind's earlier calibrations), and
# the Python serving stack over loopback and across a 5 Gbit/s veth link, as it serves
# ResNet-18 (each request after 20 ms idle and answered after the network's pass, which
# kernels/net/py_transfer_bench.py leaves out of its time); then the profiles fitted from
# them (refit_cpu_profile.sh).
#   calibration/calibrate_cpu_machine.sh MACHINE CATALOG_CPU
# writes calibration/raw/MACHINE-pytorch/, calibration/raw/MACHINE-python-serving/,
# calibration/profiles/MACHINE-pytorch.toml and profiles/protocols/python-{grpc,http}-MACHINE.toml.
# MACHINE names the machine (e.g. devbox-epyc-milan-2vcpu), CATALOG_CPU its catalog entry.
# Run it as root (the veth link needs network namespaces) on an otherwise idle machine,
# after a build (build/sim/cli/dlsim); it took 35-50 minutes on 2 vCPUs (49 on the Zen 3
# kind) before it timed passes taking turns and on a shared core, which add about 4 each.
set -euo pipefail
cd "$(dirname "$0")/.."
machine=$1
catalog_cpu=$2
py=/usr/bin/python3
ops=calibration/raw/$machine-pytorch
stack=calibration/raw/$machine-python-serving
mkdir -p "$ops" "$stack"

source calibration/grids.sh
request_thread() { calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch request-thread "$1"; }
served_forwards() {
  calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch inference "$1"
  request_thread "$1"
  calibration/measure_cpu.sh "$machine-pytorch" "resnet18:1,8,32" 1,2 pytorch in-pass "$1"
}

served_forwards _start
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2
request_thread ""
calibration/measure_cpu.sh "$machine-pytorch" "$networks" 1,2 pytorch in-pass
$py kernels/pytorch/torch_op_bench.py --signatures <(activations) --threads 1,2 --out "$ops/activations.json" 2> /dev/null
# The grid a function prints (its name, $1), inference only on one and two threads, timed in
# loops ($ops/$1.json; each signature once) and inside a pass of them ($ops/$1_in_pass.json;
# every call, as a network repeats one).
in_loops() {
  $py kernels/pytorch/torch_op_bench.py --signatures <($1 | awk '!seen[$0]++') --threads 1,2 --inference \
    --out "$ops/$1.json" 2> /dev/null
}
in_loops poolings
for grid in $pass_grids; do
  in_loops "$grid"
  grid_in_a_pass "$grid" "$ops/${grid}_in_pass.json"
done
$py kernels/pytorch/torch_op_bench.py --signatures <(echo "first_touch fp32 n32768 e1024") \
  --threads 1,2 --out "$ops/first_touch.json" 2> /dev/null
$py kernels/pytorch/page_price.py --networks resnet18:8,32 --threads 1,2 --out "$ops/page_price.json" 2> /dev/null
for team in team_wake team_spin; do
  $py kernels/pytorch/torch_op_bench.py --signatures <(echo "$team fp32 n1 e200704") \
    --threads 1,2 --repetitions 15 --min-time 0.1 --out "$ops/$team.json" 2> /dev/null
done
# Two minutes a thread count: on the Zen 5 kind a minute's trace on one thread (2026-11-28
# 00:21) found its slowest windows 1.48x the median and P99 1.20x, where served passes on
# one thread ran 1.6-1.9x slower for seconds at a time, 10% of their time.  Two minutes
# catch more of such spells, not all: the host decides when they come (calibration/README.md).
$py kernels/pytorch/stall_trace.py --threads 1,2 --seconds 120 --out "$ops/stall_trace.json"
for protocol in grpc http; do
  for link in loopback veth; do
    $py kernels/net/py_transfer_bench.py --protocol $protocol --link $link --idle-ms 20 --handler-model resnet18 \
      --out "$stack/python_${protocol}_${link}.json"
  done
done
served_forwards _end

calibration/refit_cpu_profile.sh "$machine" "$catalog_cpu"
for protocol in grpc http; do
  build/sim/cli/dlsim calibrate "$stack/python_${protocol}_loopback.json" --machine "$machine" \
    --catalog-cpu "$catalog_cpu" -o "calibration/profiles/protocols/python-$protocol-$machine.toml"
done
