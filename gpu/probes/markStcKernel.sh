#!/usr/bin/env bash
# Copies the paper's STC proxy (the harness's coruscant_stc/csrc) to DEST with four marks in its
# kernel, for stcLifetime.cu: STC_MARK(0) as the block starts, (1) once its first tile is in shared
# memory (the prologue: the bitmap and offset loads, the value loads that wait on them, B's copy,
# two barriers), (2) after its K loop, (3) after its partial sums are stored (the epilogue: the
# last tile's MMAs, C through shared memory, the global stores). Nothing else in the kernel changes.
# Usage: markStcKernel.sh HARNESS_CSRC DEST — fails, naming the anchor, if the source has moved.
set -eu
src=$1 dest=$2
rm -rf "$dest"
cp -r "$src" "$dest"
kernel=$dest/SpMM_Kernel.cuh
# anchor (a line of the kernel, as a sed pattern) → where the mark goes
mark() {
  local anchor=$1 where=$2 point=$3
  [ "$(grep -c -- "$anchor" "$kernel")" = 1 ] || { echo "markStcKernel: $kernel: anchor '$anchor' not found once" >&2; exit 1; }
  case $where in
  before) sed -i "/$anchor/i STC_MARK($point);" "$kernel" ;;
  after) sed -i "/$anchor/a STC_MARK($point);" "$kernel" ;;
  esac
}
mark 'const int BatchID     = blockIdx.y' before 0
mark '#pragma unroll(1) \/\/unroll exactly once' before 1
mark '\/\/add epliogue' before 2
mark 'BlockGlobalPTR\[j + i \* M_Global\] = ' after 3
[ "$(grep -c 'STC_MARK(' "$kernel")" = 4 ] || { echo "markStcKernel: $kernel: expected four marks" >&2; exit 1; }
