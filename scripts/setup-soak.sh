#!/usr/bin/env bash
# What `make soak` needs beyond `make setup`: a one-node Slurm cluster for the array-job soak
# (tests/soak/slurmArray.soak.test.ts). Kept out of scripts/setup.sh so that `make test` stays fast;
# without root or apt-get the soak that needs Slurm skips.
set -euo pipefail

# Debian package → a command it provides (checked to decide whether it is missing).
declare -A SOAK_DEBIAN_TOOLS=(
  [slurmctld]=slurmctld
  [slurmd]=slurmd
  [slurm-client]=sbatch
  [munge]=munged
)

missing=()
for package in "${!SOAK_DEBIAN_TOOLS[@]}"; do
  command -v "${SOAK_DEBIAN_TOOLS[$package]}" >/dev/null 2>&1 || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup-soak: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # The soak runs a private cluster (its own configuration, ports and munge socket), not these packages' services.
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup-soak: for the Slurm soak, install as root: apt-get install ${missing[*]} (it skips without them)" >&2
fi
