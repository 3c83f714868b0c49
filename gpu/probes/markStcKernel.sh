#!/usr/bin/env bash
# Copies the paper's STC proxy (the harness's coruscant_stc/csrc) to DEST with four marks in its
# kernel, for stcLifetime.cu: STC_MARK(0) as the block starts, (1) once its first tile is in shared
# memory (the prologue: the bitmap and offset loads, the value loads that wait on them, B's copy,
# two barriers), (2) after its K loop, (3) after its partial sums are stored (the epilogue: the
# last tile's MMAs, C through shared memory, the global stores); and STC_ITERATION_MARK(tile_id_k) at
# the end of each K-loop iteration, which stcLifetime.cu compiles to nothing unless built with
# -DSTC_ITERATION_MARKS. Nothing else in the kernel changes.
# Usage: markStcKernel.sh HARNESS_CSRC DEST — fails, naming the anchor, if the source has moved.
set -eu
src=$1 dest=$2
rm -rf "$dest"
cp -r "$src" "$dest"
kernel=$dest/SpMM_Kernel.cuh
# anchor (a line of the kernel, as a sed pattern) → where the statement goes
place() {
  local anchor=$1 where=$2 statement=$3
  [ "$(grep -c -- "$anchor" "$kernel")" = 1 ] || { echo "markStcKernel: $kernel: anchor '$anchor' not found once" >&2; exit 1; }
  case $where in
  before) sed -i "/$anchor/i $statement" "$kernel" ;;
  after) sed -i "/$anchor/a $statement" "$kernel" ;;
  esac
}
place 'const int BatchID     = blockIdx.y' before 'STC_MARK(0);'
place '#pragma unroll(1) \/\/unroll exactly once' before 'STC_MARK(1);'
# The loop's last statement (the one before it, "StartTileIdx +=64;", has no space before 64).
place '^ *StartTileIdx += 64;' after 'STC_ITERATION_MARK(tile_id_k);'
place '\/\/add epliogue' before 'STC_MARK(2);'
place 'BlockGlobalPTR\[j + i \* M_Global\] = ' after 'STC_MARK(3);'
[ "$(grep -c 'STC_MARK(' "$kernel")" = 4 ] || { echo "markStcKernel: $kernel: expected four marks" >&2; exit 1; }
