// What a block of the paper's STC proxy spends besides its K loop, and when the SMs start the
// blocks of a later round (gpu/probes/README.md, "Tenth batch"; docs/system-model.md, "The STC
// proxy in rounds"). The ninth batch found 2–5 µs of the kernel's duration, by grid size and the
// same at every K, that the model does not have; these marks split a block's life into its
// prologue (first tile), its loop and its epilogue (last MMAs, partial sums stored), and give each
// block's SM, start and end on the GPU's global timer, so the gap between one block's end and the
// next block's start on its SM can be read off.
//
// The kernel is the harness's own, copied with four marks by markKernel.sh (blockLifetime.cuh
// says what they record and what a run prints). The weights are the harness's format: per 64 × 1
// tile a 64-bit bitmap, its values packed in pairs and padded to 8 halves, and the running
// offsets; each bit set with probability 1 − sparsity. Each launch is timed as the harness times
// it (events around the call, which also launches the split-K reduction).
//
// Build: bash gpu/probes/markKernel.sh stc .harness/kernel_sources/coruscant_stc/csrc /tmp/stcMarked
//        nvcc -O3 -gencode arch=compute_90,code=sm_90 --use_fast_math -maxrregcount=255 \
//          -DSTC_KERNEL_SOURCE='"/tmp/stcMarked/Coruscant_STC_SpMM_API.cu"' -o stcLifetime stcLifetime.cu
//        (with -DBLOCK_ITERATION_MARKS for iterations.csv)
// Run:   ./stcLifetime <M> <K> <sparsity %> <split-K> [blocks.csv [iterations.csv]]
#include <random>
#include "blockLifetime.cuh"
#include STC_KERNEL_SOURCE

constexpr int TILE_ROWS = 64, STC_THREADS = 128;
constexpr int SHARED_BYTES = (256 * 64 + 16 * 64) * 2 * 2;  // the API's SHMEM_SZ for N = 8

struct Weights {
  std::vector<uint64_t> bitmaps;
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> values;
};

// The harness's bitmap format (InitSparseMatrixA_API_bmp_real): tiles of 64 rows × 1 column,
// row blocks outer, columns inner; a tile's values padded to a multiple of 8 halves.
static Weights randomWeights(int m, int k, double sparsity) {
  std::mt19937_64 random(12345);
  std::bernoulli_distribution keep(1.0 - sparsity);
  Weights w;
  const size_t tiles = size_t(m / TILE_ROWS) * k;
  w.bitmaps.resize(tiles);
  w.offsets.resize(tiles + 1);
  w.offsets[0] = 0;
  for (size_t t = 0; t < tiles; t++) {
    uint64_t bits = 0;
    for (int i = 0; i < 64; i++)
      if (keep(random)) bits |= 1ull << (63 - i);
    w.bitmaps[t] = bits;
    const int padded = (__builtin_popcountll(bits) + 7) / 8 * 8;
    w.offsets[t + 1] = w.offsets[t] + padded / 2;
  }
  // One more vector past the last tile: the kernel loads popcount / 8 + 1 vectors of each tile.
  w.values.assign(w.offsets[tiles] + 4, 0x3c003c00u);  // pairs of 1.0
  return w;
}

int main(int argc, char** argv) {
  LifetimeShape shape;
  if (!lifetimeShape(argc, argv, "stcLifetime", shape)) return 2;
  const int m = shape.m, n = shape.n, k = shape.k, splitK = shape.splitK;
  const Weights w = randomWeights(m, k, shape.sparsity);
  uint64_t* bitmaps = upload(w.bitmaps, COPIES);
  uint32_t* offsets = upload(w.offsets, COPIES);
  uint32_t* values = upload(w.values, COPIES);
  const LifetimeOperands io = lifetimeOperands(shape);
  half *b = io.b, *c = io.c, *workspace = io.workspace;
  LifetimeLaunches launches;
  launches.api = [&](int copy) {
    CHECK(Coruscant_STC_SpMM_SplitK_API(0, nullptr, bitmaps + copy * w.bitmaps.size(),
                                        reinterpret_cast<const uint4*>(values + copy * w.values.size()),
                                        offsets + copy * w.offsets.size(), b, c, m, n, k, workspace, splitK));
  };
  // The main kernel alone, without the split-K reduction the API launches after it.
  launches.kernelOnly = [&](int copy) {
    Coruscant_STC_SpMM_SplitK_Kernel_Ex<TilingConfig<4, 1, 1, 1>, SparseKernelConfig<64>>(
        0, nullptr, bitmaps + copy * w.bitmaps.size(), reinterpret_cast<const uint4*>(values + copy * w.values.size()),
        offsets + copy * w.offsets.size(), b, workspace, m, n, k, splitK);
  };
  launches.threads = STC_THREADS;
  launches.sharedBytes = SHARED_BYTES;
  // The first tile is loaded before the loop.
  launches.loopIterations = shape.iterations - 1;
  return runLifetime(argc, argv, "stcLifetime", shape, launches);
}
