#!/usr/bin/env bash
# Installs what gemm-mlir needs to build and test on Debian 12, and nothing
# when everything is already present (idempotent). Run as root or with sudo.
set -euo pipefail

# python3-dev and pybind11-dev: the runtime's Python module (runtime/).
packages=(cmake ninja-build g++ python3 libgtest-dev
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
          python3-dev pybind11-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if ! $SUDO apt-get install -y -qq "${missing[@]}"; then
  # LLVM 22 comes from apt.llvm.org on machines whose sources lack it.
  if ! apt-cache show llvm-22-dev >/dev/null 2>&1; then
    echo "setup: adding apt.llvm.org for LLVM 22"
    $SUDO apt-get install -y -qq wget gnupg ca-certificates
    wget -qO- https://apt.llvm.org/llvm-snapshot.gpg.key | $SUDO tee /etc/apt/trusted.gpg.d/apt.llvm.org.asc >/dev/null
    echo "deb http://apt.llvm.org/bookworm/ llvm-toolchain-bookworm-22 main" | $SUDO tee /etc/apt/sources.list.d/llvm-22.list >/dev/null
    $SUDO apt-get update -qq
  fi
  $SUDO apt-get install -y -qq "${missing[@]}"
fi
echo "setup: done"
