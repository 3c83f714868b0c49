#!/usr/bin/env bash
# Copies one of the harness's register-staged kernels to DEST with four marks in its kernel, for
# stcLifetime.cu and flashLifetime.cu (blockLifetime.cuh): BLOCK_MARK(0) as the block starts, (1)
# once its first tile is in shared memory (the prologue: the tile's loads, what waits on them, B's
# copy, the barriers), (2) after its K loop, (3) after its partial sums are stored (the epilogue:
# the last tile's MMAs, C through shared memory, the global stores); and
# BLOCK_ITERATION_MARK(tile_id_k) at the end of each K-loop iteration, which compiles to nothing
# unless built with -DBLOCK_ITERATION_MARKS. Nothing else in the kernel changes.
#   stc       the STC proxy (the harness's coruscant_stc/csrc)
#   flashllm  Flash-LLM (flash_llm/csrc), whose SpMM_Kernel.cuh holds a second kernel: the marks go
#             into FlashLLM_SpMM_Kernel only
# Usage: markKernel.sh stc|flashllm HARNESS_CSRC DEST — fails, naming the anchor, if the source has moved.
set -eu
kernelName=$1 src=$2 dest=$3
kernel=$dest/SpMM_Kernel.cuh
# The lines of SpMM_Kernel.cuh the anchors are looked for in (a sed address range).
case $kernelName in
stc) range='1,$' ;;
flashllm) range='/__global__ void FlashLLM_SpMM_Kernel/,/^__global__/' ;;
*)
  echo "markKernel: unknown kernel '$kernelName' (stc or flashllm)" >&2
  exit 2
  ;;
esac
rm -rf "$dest"
cp -r "$src" "$dest"
# anchor (a line of the kernel, as a sed pattern) → where the statement goes: before it, after it,
# or after the line that follows it
place() {
  local anchor=$1 where=$2 statement=$3
  [ "$(sed -n "$range{/$anchor/=}" "$kernel" | wc -l)" = 1 ] ||
    { echo "markKernel: $kernel: anchor '$anchor' not found once" >&2; exit 1; }
  case $where in
  before) sed -i "$range{/$anchor/i $statement
}" "$kernel" ;;
  after) sed -i "$range{/$anchor/a $statement
}" "$kernel" ;;
  afterNext) sed -i "$range{/$anchor/{n;a $statement
}}" "$kernel" ;;
  esac
}
case $kernelName in
stc)
  place 'const int BatchID     = blockIdx.y' before 'BLOCK_MARK(0);'
  place '#pragma unroll(1) \/\/unroll exactly once' before 'BLOCK_MARK(1);'
  # The loop's last statement (the one before it, "StartTileIdx +=64;", has no space before 64).
  place '^ *StartTileIdx += 64;' after 'BLOCK_ITERATION_MARK(tile_id_k);'
  place '\/\/add epliogue' before 'BLOCK_MARK(2);'
  place 'BlockGlobalPTR\[j + i \* M_Global\] = ' after 'BLOCK_MARK(3);'
  ;;
flashllm)
  place 'const int BatchID     = blockIdx.y' before 'BLOCK_MARK(0);'
  place '^#pragma unroll(1)$' before 'BLOCK_MARK(1);'
  # The loop ends with the wait for B's copy and the barrier after it.
  place 'cp_async_wait_group<0>();  \/\/ Sync to ensure the completion of Loading B' afterNext 'BLOCK_ITERATION_MARK(tile_id_k);'
  place '\/\/ Store the C fragments to shared memory' before 'BLOCK_MARK(2);'
  place 'BlockGlobalPTR\[j + i \* M_Global\] = ' after 'BLOCK_MARK(3);'
  ;;
esac
[ "$(grep -c 'BLOCK_MARK(' "$kernel")" = 4 ] || { echo "markKernel: $kernel: expected four marks" >&2; exit 1; }
