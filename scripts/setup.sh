#!/usr/bin/env bash
# Installs what `make demo` / `make test` need on a fresh Debian machine with Node 20:
# npm packages (from the lock file) and the Debian tools the cross-checks run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian package → a command it provides (checked to decide whether it is missing).
declare -A DEBIAN_TOOLS=(
  [verilator]=verilator
  [iverilog]=iverilog
  [gtkwave]=vcd2fst
  [opensta]=sta
  [yosys]=yosys
  [chromium]=chromium
  # Verilator builds its models with them; Debian's verilator package does not depend on them.
  [g++]=g++
  [make]=make
  # The regression farm's queue (gen regress --farm); its tests start a private server.
  [redis-server]=redis-server
  # The GPU probes' readers (gpu/probes/*.py), which the tests run on the kept results.
  [python3]=python3
)
# `make soak` only (SETUP_SOAK=1): a private one-node Slurm cluster for the array-job soak
# (tests/soak/slurmArray.soak.test.ts, which runs its own daemons, not these packages' services).
if [ "${SETUP_SOAK:-0}" = 1 ]; then
  DEBIAN_TOOLS+=([slurmctld]=slurmctld [slurmd]=slurmd [slurm-client]=sbatch [munge]=munged)
fi

major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

missing=()
for package in "${!DEBIAN_TOOLS[@]}"; do
  command -v "${DEBIAN_TOOLS[$package]}" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: please install these Debian packages (as root): apt-get install ${missing[*]}" >&2
    echo "setup: tests that need them will report them as missing." >&2
  fi
fi
