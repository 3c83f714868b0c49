// Flash-LLM's blocks timed from inside, as stcLifetime.cu times the STC proxy's: which part of an
// SM's second block's cost is its own and which the grid's burst (docs/system-model.md, "A third
// block, and the extract in place"). In the harness at K 7168, split-K 8, Flash-LLM's time jumps
// 17 % from M 4096 to 4352, where four SMs take a second block, and grows 9 % more until every SM
// holds two (M 8448); the model has +2.5 % and +28 %. Each block's SM and its iterations' ends say
// how long an iteration takes on an SM with one block and on one with two, in a light grid and in
// a full one.
//
// The kernel is the harness's own, copied with four marks by markKernel.sh (blockLifetime.cuh
// says what they record and what a run prints). The weights are a dense M × K matrix with each
// element kept with probability 1 − sparsity (as the harness's init, with ones for its values),
// compressed by the harness's own InitSparseMatrixA_API into Flash-LLM's Tiled-CSL format.
//
// Build: bash gpu/probes/markKernel.sh flashllm .harness/kernel_sources/flash_llm/csrc /tmp/flashMarked
//        nvcc -O3 -gencode arch=compute_90,code=sm_90 --use_fast_math -maxrregcount=255 \
//          -DFLASH_KERNEL_SOURCE='"/tmp/flashMarked/FlashLLM_SpMM_API.cu"' -o flashLifetime flashLifetime.cu
//        (with -DBLOCK_ITERATION_MARKS for iterations.csv)
// Run:   ./flashLifetime <M> <K> <sparsity %> <split-K> [blocks.csv [iterations.csv]]
#include <random>
#include "blockLifetime.cuh"
#include FLASH_KERNEL_SOURCE

constexpr int FLASH_THREADS = 128;
// The API's SHMEM_SZ for N = 8: two buffers of the A tile (256 × 64) and the B tile (64 × 16).
constexpr int SHARED_BYTES = (256 * 64 + 16 * 64) * 2 * 2;

struct Weights {
  std::vector<uint32_t> values;  // a nonzero's half and its 16-bit place in the tile
  std::vector<int> offsets;      // per tile, in vectors of four
};

static Weights randomWeights(int m, int k, double sparsity) {
  std::mt19937_64 random(12345);
  std::bernoulli_distribution keep(1.0 - sparsity);
  std::vector<half> dense(size_t(m) * k);
  for (half& a : dense) a = __float2half(keep(random) ? 1.0f : 0.0f);
  uint32_t* values = nullptr;
  int* offsets = nullptr;
  const int count = InitSparseMatrixA_API(dense.data(), m, 8, k, &values, &offsets);
  Weights w;
  w.offsets.assign(offsets, offsets + count);
  const size_t nonzeros = size_t(offsets[count - 1]) * 4;
  // A vector past the last tile, as the harness's four copies leave the next copy after each.
  w.values.assign(values, values + nonzeros);
  w.values.resize(nonzeros + 4, 0);
  free(values);
  free(offsets);
  return w;
}

int main(int argc, char** argv) {
  LifetimeShape shape;
  if (!lifetimeShape(argc, argv, "flashLifetime", shape)) return 2;
  const int m = shape.m, n = shape.n, k = shape.k, splitK = shape.splitK;
  const Weights w = randomWeights(m, k, shape.sparsity);
  uint32_t* values = upload(w.values, COPIES);
  int* offsets = upload(w.offsets, COPIES);
  const LifetimeOperands io = lifetimeOperands(shape);
  half *b = io.b, *c = io.c, *workspace = io.workspace;
  auto valuesOf = [&](int copy) { return reinterpret_cast<const uint4*>(values + copy * w.values.size()); };
  LifetimeLaunches launches;
  launches.api = [&](int copy) {
    CHECK(FlashLLM_SpMM_SplitK_API(0, nullptr, valuesOf(copy), offsets + copy * w.offsets.size(), b, c, m, n, k,
                                   workspace, splitK));
  };
  // The main kernel alone, without the split-K reduction the API launches after it.
  launches.kernelOnly = [&](int copy) {
    FlashLLM_SpMM_SplitK_Kernel_Ex<TilingConfig<4, 1, 1, 1>, SparseKernelConfig<64>>(
        0, nullptr, valuesOf(copy), offsets + copy * w.offsets.size(), b, workspace, m, n, k, splitK);
  };
  launches.threads = FLASH_THREADS;
  launches.sharedBytes = SHARED_BYTES;
  // Each iteration computes one tile and loads the next (the prologue loads the first, the last
  // iteration loads nothing): one iteration per tile.
  launches.loopIterations = shape.iterations;
  return runLifetime(argc, argv, "flashLifetime", shape, launches);
}
