#!/usr/bin/env bash
# scripts/deps.sh — installs the Debian packages zapbench needs, only those
# missing. Used by `make bench` and `make test`; safe to run again.
set -euo pipefail

packages=(
  g++ make cmake ninja-build           # the build
  ccache                               # repeated builds (make test builds four trees)
  clang-14 libclang-rt-14-dev          # libFuzzer + sanitizers for the fuzz preset
  libgtest-dev libgmock-dev            # tests
  libbenchmark-dev                     # microbenchmarks
  nlohmann-json3-dev rapidjson-dev     # the JSON codecs under test
  libboost-json1.81-dev libsimdjson-dev
  libhttp-parser-dev                   # the HTTP/1.1 parser our own is benchmarked against
  nginx-light                          # zapbench run's reference arm (nginx serving /health)
  chromium                             # the test that renders report.html headless
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
