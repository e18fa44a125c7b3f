#!/usr/bin/env bash
# validation/serving_cases.py makes the 22:24 Genoa campaign's case file again from its data:
# the same suites (group, rows chosen, what is compared, from which file) as the committed
# one; so too the 09:15 Zen 5 campaign's, whose networks are named by their ONNX files
# (--model-file); from the 19:23 campaign's latencies, every suite of the two networks whose
# loading left a team (Inception-v3, GoogLeNet) and none of ResNet-34's sets
# serving.loader_team, as the committed file does; so too the Granite Rapids 13:50 campaign's,
# whose clients read files (--input-profile); so too the Granite Rapids 08:45 campaign's, priced at
# the pace probed on the day (--pace); so too its 11:09 campaign's, priced from a page census
# keyed by its clients (--census); so too its 00:12 campaign's, each thread count at its own pace
# (--pace THREADS=PACE); so too its 05:05 campaign's, each network at the yardstick served before
# it (--pace MODEL:THREADS=PACE); a missing data file is refused with exit 2.
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "a header" > "$work/header.txt"
# Each suite as one line, its defaults filled in and its bound left out, suites sorted.
suites() {
  /usr/bin/python3 -c '
import sys, tomllib
doc = tomllib.load(open(sys.argv[1], "rb"))
defaults = doc["defaults"]
print(defaults)
for s in sorted(doc["suite"], key=lambda s: s["group"]):
    suite = {**defaults, **s, "set": {**defaults["set"], **s.get("set", {})}}
    print({k: suite[k] for k in sorted(suite) if k != "bound_mape_pct"})' "$1" > "$2"
}
# remade NAME CAMPAIGN [serving_cases.py's arguments]: the campaign's case file made again from
# its data into $work/NAME.toml, the same suites as the committed one's.
remade() {
  local name=$1 campaign=$2
  shift 2
  /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "$@" \
    --header "$work/header.txt" --out "$work/$name.toml"
  suites "$source_dir/validation/cases/$campaign.toml" "$work/${name}_committed.txt"
  suites "$work/$name.toml" "$work/${name}_made.txt"
  diff "$work/${name}_committed.txt" "$work/${name}_made.txt"
}
remade made serving_cpu_devbox_genoa_unseen_2224 \
  --phases validation/data/serving_phases_devbox_genoa_unseen_2224.csv \
  --profile calibration/profiles/devbox-epyc-genoa-2vcpu-1127-2104-pytorch.toml \
  --protocols devbox-epyc-genoa-2vcpu-1127-2104 --cpu epyc-genoa-kvm \
  --tag 'devbox-epyc-genoa-{model}-unseen-2224'
# Networks the zoo lacks, named by their ONNX export: the 09:15 campaign's file again.
remade onnx serving_cpu_devbox_turin21_onnx_0915 \
  --phases validation/data/serving_phases_devbox_turin21_onnx_0915.csv \
  --latencies validation/data/serving_latencies_devbox_turin21_onnx_0915.jsonl \
  --profile calibration/profiles/devbox-epyc-turin-2vcpu-1128-1915-pytorch.toml \
  --protocols devbox-epyc-turin-2vcpu-1129-0347 --cpu epyc-turin-2.1ghz-kvm \
  --tag 'devbox-epyc-turin21-{model}-onnx-0915' --model-file 'validation/oracle/onnx/{model}_train.onnx'
grep -q '"workload.model" = "../../oracle/onnx/{model}_train.onnx"' "$work/onnx.toml"
/usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/serving_cpu_devbox_genoa_unseen_1923.csv \
  --latencies validation/data/serving_latencies_devbox_genoa_unseen_1923.jsonl \
  --profile calibration/profiles/devbox-epyc-genoa-2vcpu-1127-1848-pytorch.toml \
  --protocols devbox-epyc-genoa-2vcpu-1127-1848 --cpu epyc-genoa-kvm \
  --tag 'devbox-epyc-genoa-{model}-unseen-1923' --header "$work/header.txt" --out "$work/teams.toml"
/usr/bin/python3 - "$work/teams.toml" <<'PY'
import sys, tomllib
suites = tomllib.load(open(sys.argv[1], "rb"))["suite"]
teams = {s["where"]["model"] for s in suites if s.get("set", {}).get("serving.loader_team") == "true"}
bare = {s["where"]["model"] for s in suites if "serving.loader_team" not in s.get("set", {})}
assert teams == {"inception_v3", "googlenet"} and bare == {"resnet34"}, (teams, bare)
PY
# Clients that read files (--input-profile): the Granite Rapids 13:50 campaign's file again,
# each case served from its row's input, which its id names.
remade files serving_cpu_devbox_granite_1350 \
  --phases validation/data/serving_phases_devbox_granite_1350.csv \
  --latencies validation/data/serving_latencies_devbox_granite_1350.jsonl \
  --profile calibration/profiles/devbox-xeon-granite-rapids-2vcpu-pytorch.toml \
  --protocols devbox-xeon-granite-rapids-2vcpu --cpu xeon-granite-rapids-kvm \
  --input-profile calibration/profiles/input/torchvision-devbox-xeon-granite-rapids-2vcpu.toml \
  --tag 'devbox-xeon-granite-rapids-{model}-1350'
grep -q '"serving.input" = "{input}"' "$work/files.toml"
# The machine's pace on the day (--pace): the Granite Rapids 08:45 campaign's file again, every
# case priced at the pace probed before its runs.
remade paced serving_cpu_devbox_granite_paced_0845 \
  --phases validation/data/serving_phases_devbox_granite_paced_0845.csv \
  --latencies validation/data/serving_latencies_devbox_granite_paced_0845.jsonl \
  --profile calibration/profiles/devbox-xeon-granite-rapids-2vcpu-1201-pytorch.toml \
  --protocols devbox-xeon-granite-rapids-2vcpu-1201 --cpu xeon-granite-rapids-kvm \
  --model-file 'validation/oracle/onnx/{model}_train.onnx' --pace 0.93 \
  --tag 'devbox-xeon-granite-rapids-{model}-paced-0845'
grep -q '"system.cpu_pace" = "0.93"' "$work/paced.toml"
# A page census (--census) keyed by its clients too: the Granite Rapids 11:09 campaign's file again,
# each configuration priced with the pages its census counted with as many clients (batch 8 in
# process, one client: 99,732; over asynchronous gRPC, two: 116,438), and none from a census
# that counted other clients.
campaign=serving_cpu_devbox_granite_census_1109
census_args=(--phases validation/data/serving_phases_devbox_granite_census_1109.csv
  --latencies validation/data/serving_latencies_devbox_granite_census_1109.jsonl
  --profile calibration/profiles/devbox-xeon-granite-rapids-2vcpu-1201-pytorch.toml
  --protocols devbox-xeon-granite-rapids-2vcpu-1201 --cpu xeon-granite-rapids-kvm
  --model-file 'validation/oracle/onnx/{model}_train.onnx' --pace 0.95
  --tag 'devbox-xeon-granite-rapids-{model}-census-1109')
remade census $campaign "${census_args[@]}" --census validation/data/page_census_devbox_granite_1108.csv
/usr/bin/python3 - "$work/census.toml" <<'PY'
import sys, tomllib
pages = {(s["where"]["model"], s["where"].get("batch"), s["where"].get("deployment"), s["where"].get("mode")):
         s.get("set", {}).get("system.pass_page_faults") for s in tomllib.load(open(sys.argv[1], "rb"))["suite"]}
assert pages[("efficientnet_b3", "8", "in-process", "sync")] == "99732", pages
assert pages[("efficientnet_b3", "8", "local", "async")] == "116438", pages
PY
sed 's/,2,tensors,/,1,tensors,/' "$source_dir/validation/data/page_census_devbox_granite_1108.csv" > "$work/one_client.csv"
/usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${census_args[@]}" \
  --census "$work/one_client.csv" --header "$work/header.txt" --out "$work/one_client.toml" 2> "$work/one_client_err"
grep -q "no census count for .*'deployment': 'local'.* with its clients" "$work/one_client_err"
# A pace for each thread count (--pace THREADS=PACE): the Granite Rapids 00:12 campaign's file
# again, each configuration at its thread count's pace; paces for too few thread counts refused.
campaign=serving_cpu_devbox_granite_threads_0002
threads_args=(--phases validation/data/serving_phases_devbox_granite_threads_0002.csv
  --latencies validation/data/serving_latencies_devbox_granite_threads_0002.jsonl
  --profile calibration/profiles/devbox-xeon-granite-rapids-2vcpu-1201-1925-pytorch.toml
  --protocols devbox-xeon-granite-rapids-2vcpu-1201-1925 --cpu xeon-granite-rapids-kvm
  --model-file 'validation/oracle/onnx/{model}_train.onnx' --census validation/data/page_census_devbox_granite_0002.csv
  --tag 'devbox-xeon-granite-rapids-{model}-threads-0002')
remade threads $campaign "${threads_args[@]}" --pace 1=1.27 --pace 2=1.25
/usr/bin/python3 - "$work/threads.toml" <<'PY'
import sys, tomllib
doc = tomllib.load(open(sys.argv[1], "rb"))
assert "system.cpu_pace" not in doc["defaults"]["set"], doc["defaults"]
paces = {(s["where"]["server_threads"], s["set"]["system.cpu_pace"]) for s in doc["suite"]}
assert paces == {("1", "1.27"), ("2", "1.25")}, paces
PY
if /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${threads_args[@]}" \
     --pace 2=1.25 --header "$work/header.txt" --out "$work/one_pace.toml" 2> "$work/err"; then
  echo "a campaign on two thread counts was accepted with the pace of one" >&2
  exit 1
else
  [ $? -eq 2 ] && grep -q "a pace for every thread count served (1, 2), or for each network on it; got 2" "$work/err"
fi
# A pace for each network on each thread count (--pace MODEL:THREADS=PACE): the 05:05 campaign's
# file again, each network at the yardstick served just before its runs; a network without a
# pace of its own takes its thread count's; one priced on neither refused; a malformed one too,
# and one for a network the campaign did not serve.
campaign=serving_cpu_devbox_granite_yardsticks_0505
yard_args=(--phases validation/data/serving_phases_devbox_granite_yardsticks_0505.csv
  --latencies validation/data/serving_latencies_devbox_granite_yardsticks_0505.jsonl
  --profile calibration/profiles/devbox-xeon-granite-rapids-2vcpu-1201-1925-pytorch.toml
  --protocols devbox-xeon-granite-rapids-2vcpu-1201-1925 --cpu xeon-granite-rapids-kvm
  --model-file 'validation/oracle/onnx/{model}_train.onnx'
  --census validation/data/page_census_devbox_granite_yardsticks_0505.csv
  --tag 'devbox-xeon-granite-rapids-{model}-yardsticks-0505')
remade yardsticks $campaign "${yard_args[@]}" --pace shufflenet_v2_x1_0:1=1.11 --pace shufflenet_v2_x1_0:2=1.07 \
  --pace mnasnet0_5:1=1.04 --pace mnasnet0_5:2=1.09 --pace mobilenet_v3_large:1=1.06 --pace mobilenet_v3_large:2=1.04
/usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${yard_args[@]}" \
  --pace mnasnet0_5:2=1.09 --pace 1=1.11 --pace 2=1.07 --header "$work/header.txt" --out "$work/mixed.toml"
/usr/bin/python3 - "$work/mixed.toml" <<'PY'
import sys, tomllib
paces = {(s["where"]["model"], s["where"]["server_threads"], s["set"]["system.cpu_pace"])
         for s in tomllib.load(open(sys.argv[1], "rb"))["suite"] if "server_threads" in s["where"]}
assert ("mnasnet0_5", "2", "1.09") in paces and ("mnasnet0_5", "1", "1.11") in paces, paces
assert ("shufflenet_v2_x1_0", "2", "1.07") in paces and len(paces) == 6, paces
PY
if /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${yard_args[@]}" \
     --pace mnasnet0_5:1=1.04 --pace 2=1.07 --header "$work/header.txt" --out "$work/unpriced.toml" 2> "$work/err"; then
  echo "networks on one thread with no pace were accepted" >&2
  exit 1
else
  [ $? -eq 2 ] && grep -q "(none for mobilenet_v3_large on 1, shufflenet_v2_x1_0 on 1)" "$work/err"
fi
if /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${yard_args[@]}" \
     --pace mnasnet0_5:two=1.04 --header "$work/header.txt" --out "$work/bad.toml" 2> "$work/err"; then
  echo "a pace for 'two' threads was accepted" >&2
  exit 1
else
  [ $? -eq 2 ] && grep -q "'mnasnet0_5:two=1.04': expected PACE, THREADS=PACE or MODEL:THREADS=PACE" "$work/err"
fi
if /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/$campaign.csv "${yard_args[@]}" \
     --pace resnet50:1=1.04 --pace 1=1.11 --pace 2=1.07 --header "$work/header.txt" --out "$work/stranger.toml" \
     2> "$work/err"; then
  echo "a pace for a network the campaign did not serve was accepted" >&2
  exit 1
else
  [ $? -eq 2 ] && grep -q "\-\-pace for resnet50, which the campaign did not serve" "$work/err"
fi
if /usr/bin/python3 "$source_dir/validation/serving_cases.py" --data validation/data/none.csv --profile x \
     --protocols x --cpu x --tag x --header "$work/header.txt" --out "$work/none.toml" 2> "$work/err"; then
  echo "a missing data file was accepted" >&2
  exit 1
else
  [ $? -eq 2 ] && grep -q "no such file: validation/data/none.csv" "$work/err"
fi
# validation/serving_open_cases.py makes the 00:45 open loops' case file again, the same suites.
/usr/bin/python3 "$source_dir/validation/serving_open_cases.py" \
  --data validation/data/serving_open_devbox_turin21_0045.csv \
  --phases validation/data/serving_open_phases_devbox_turin21_0045.csv --intervals validation/data/intervals \
  --profile calibration/profiles/devbox-epyc-turin-2vcpu-1128-1915-pytorch.toml \
  --protocols devbox-epyc-turin-2vcpu-1128-1915 --cpu epyc-turin-2.1ghz-kvm --tag devbox-epyc-turin21-0045 \
  --header "$work/header.txt" --out "$work/open.toml"
suites "$source_dir/validation/cases/serving_open_devbox_turin21_0045.toml" "$work/open_committed.txt"
suites "$work/open.toml" "$work/open_made.txt"
diff "$work/open_committed.txt" "$work/open_made.txt"
echo "serving_cases.py: the 22:24 and 09:15 (ONNX) campaigns' case files made again; 19:23's loader teams set; 13:50's file clients;"\
  "08:45's pace; 11:09's census by its clients; 00:12's pace by threads; 05:05's pace by network;"\
  "a missing file refused;"\
  "serving_open_cases.py: the 00:45 open loops' case file made again"
