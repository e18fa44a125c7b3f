#!/usr/bin/env bash
# Installs what dlsim needs from Debian 12 (only what is missing) and builds it into build/.
#   scripts/setup.sh              the build dlsim runs from
#   scripts/setup.sh --sanitizers also the tools for the sanitizer and fuzzing build
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ ccache pkg-config git
          libfmt-dev nlohmann-json3-dev libcli11-dev libtomlplusplus-dev
          libonnx-dev libprotobuf-dev protobuf-compiler libgtest-dev libgmock-dev
          libsimgrid-dev libdnnl-dev libbenchmark-dev libblas-dev libeigen3-dev
          libgrpc++-dev protobuf-compiler-grpc libcpp-httplib-dev gnuplot-nox python3-grpcio
          python3-torch python3-torchvision)
if [[ "${1:-}" == "--sanitizers" ]]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build
