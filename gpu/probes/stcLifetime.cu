// What a block of the paper's STC proxy spends besides its K loop, and when the SMs start the
// blocks of a later round (gpu/probes/README.md, "Tenth batch"; docs/system-model.md, "The STC
// proxy in rounds"). The ninth batch found 2–5 µs of the kernel's duration, by grid size and the
// same at every K, that the model does not have; these marks split a block's life into its
// prologue (first tile), its loop and its epilogue (last MMAs, partial sums stored), and give each
// block's SM, start and end on the GPU's global timer, so the gap between one block's end and the
// next block's start on its SM can be read off.
//
// The kernel is the harness's own, copied with four marks by markStcKernel.sh (thread 0 of each
// block reads clock64 there; %globaltimer at its start and end). The weights are the harness's
// format: per 64 × 1 tile a 64-bit bitmap, its values packed in pairs and padded to 8 halves, and
// the running offsets; each bit set with probability 1 − sparsity. Four copies are used in turn, as
// the harness does, and each launch is timed as the harness times it (events around the call,
// which also launches the split-K reduction). An empty kernel of the same grid, block and shared
// memory is timed the same way (what a launch of that grid costs without work).
//
// Build: bash gpu/probes/markStcKernel.sh .harness/kernel_sources/coruscant_stc/csrc /tmp/stcMarked
//        nvcc -O3 -gencode arch=compute_90,code=sm_90 --use_fast_math -maxrregcount=255 \
//          -DSTC_KERNEL_SOURCE='"/tmp/stcMarked/Coruscant_STC_SpMM_API.cu"' -o stcLifetime stcLifetime.cu
// Run:   ./stcLifetime <M> <K> <sparsity %> <split-K> [blocks.csv [iterations.csv]]
// Prints one JSON line (event-timed µs of the API's call, of its main kernel alone and of the empty
// kernel, medians of 20 launches; the blocks' medians from the last launch); blocks.csv gets one row
// per block; iterations.csv (built with -DSTC_ITERATION_MARKS) one row per block and K-loop
// iteration: its end in cycles since the block's mark 1 and in ns since the first block started.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "eventTimer.cuh"

// Per block: clock64 at marks 0–3, its SM, %globaltimer at mark 0 and at mark 3.
constexpr int MARK_SLOTS = 8;
__constant__ long long* stcMarks;

__device__ __forceinline__ long long globalTimer() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void stcMark(int point) {
  if (threadIdx.x != 0) return;
  long long* slot = stcMarks + size_t(blockIdx.y) * MARK_SLOTS;
  slot[point] = clock64();
  if (point == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    slot[4] = sm;
    slot[5] = globalTimer();
  }
  if (point == 3) slot[6] = globalTimer();
}
#define STC_MARK(point) stcMark(point)

// Built with -DSTC_ITERATION_MARKS, thread 0 of each block also records clock64 and %globaltimer as
// each K-loop iteration ends (two stores per iteration, the loop's only addition); otherwise the
// mark is nothing, and the kernel compiles as it did before the mark was placed.
#ifdef STC_ITERATION_MARKS
constexpr int MAX_ITERATIONS = 64;
__constant__ long long* stcIterationMarks;
__device__ __forceinline__ void stcIterationMark(int iteration) {
  if (threadIdx.x != 0 || iteration >= MAX_ITERATIONS) return;
  long long* slot = stcIterationMarks + (size_t(blockIdx.y) * MAX_ITERATIONS + iteration) * 2;
  slot[0] = clock64();
  slot[1] = globalTimer();
}
#define STC_ITERATION_MARK(iteration) stcIterationMark(iteration)
#else
#define STC_ITERATION_MARK(iteration)
#endif
#include STC_KERNEL_SOURCE

__global__ void emptyBlock() {
  stcMark(0);
  stcMark(3);
}

constexpr int LAUNCHES = 20, COPIES = 4, TILE_ROWS = 64, STC_THREADS = 128;
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

template <typename T>
static T* upload(const std::vector<T>& host, int copies) {
  T* device = nullptr;
  CHECK(cudaMalloc(&device, host.size() * sizeof(T) * copies));
  for (int c = 0; c < copies; c++)
    CHECK(cudaMemcpy(device + c * host.size(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

// A CSV file for writing with its header line, or nullptr (the reason printed).
static FILE* openCsv(const char* path, const char* header) {
  FILE* csv = fopen(path, "w");
  if (!csv) perror(path);
  else fprintf(csv, "%s\n", header);
  return csv;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: stcLifetime <M> <K> <sparsity %%> <split-K> [blocks.csv [iterations.csv]]\n");
    return 2;
  }
#ifndef STC_ITERATION_MARKS
  if (argc > 6) {
    fprintf(stderr, "stcLifetime: iterations.csv needs a build with -DSTC_ITERATION_MARKS\n");
    return 2;
  }
#endif
  const int m = atoi(argv[1]), k = atoi(argv[2]), n = 8, splitK = atoi(argv[4]);
  const double sparsity = atof(argv[3]) / 100;
  if (m % 256 || k % (64 * splitK) || splitK < 1) {
    fprintf(stderr, "stcLifetime: M must be a multiple of 256 and K of 64 × split-K\n");
    return 2;
  }
  const int iterations = k / 64 / splitK;
#ifdef STC_ITERATION_MARKS
  if (iterations - 1 > MAX_ITERATIONS) {
    fprintf(stderr, "stcLifetime: %d loop iterations, marks for %d\n", iterations - 1, MAX_ITERATIONS);
    return 2;
  }
#endif
  const Weights w = randomWeights(m, k, sparsity);
  uint64_t* bitmaps = upload(w.bitmaps, COPIES);
  uint32_t* offsets = upload(w.offsets, COPIES);
  uint32_t* values = upload(w.values, COPIES);
  const std::vector<half> bHost(size_t(k) * 16, __float2half(1.0f));
  half* b = upload(bHost, 1);
  half *c = nullptr, *workspace = nullptr;
  CHECK(cudaMalloc(&c, sizeof(half) * m * n));
  CHECK(cudaMalloc(&workspace, sizeof(half) * m * n * splitK));
  const int blocks = m * splitK / 256;
  long long* marks = nullptr;
  CHECK(cudaMalloc(&marks, sizeof(long long) * MARK_SLOTS * blocks));
  CHECK(cudaMemcpyToSymbol(stcMarks, &marks, sizeof(marks)));
#ifdef STC_ITERATION_MARKS
  long long* iterationMarks = nullptr;
  const size_t iterationSlots = size_t(blocks) * MAX_ITERATIONS * 2;
  CHECK(cudaMalloc(&iterationMarks, sizeof(long long) * iterationSlots));
  CHECK(cudaMemcpyToSymbol(stcIterationMarks, &iterationMarks, sizeof(iterationMarks)));
#endif

  int launch = 0;
  auto stc = [&] {
    const int copy = launch++ % COPIES;
    CHECK(Coruscant_STC_SpMM_SplitK_API(0, nullptr, bitmaps + copy * w.bitmaps.size(),
                                        reinterpret_cast<const uint4*>(values + copy * w.values.size()),
                                        offsets + copy * w.offsets.size(), b, c, m, n, k, workspace, splitK));
  };
  // The main kernel alone, without the split-K reduction the API launches after it.
  auto kernelOnly = [&] {
    const int copy = launch++ % COPIES;
    Coruscant_STC_SpMM_SplitK_Kernel_Ex<TilingConfig<4, 1, 1, 1>, SparseKernelConfig<64>>(
        0, nullptr, bitmaps + copy * w.bitmaps.size(), reinterpret_cast<const uint4*>(values + copy * w.values.size()),
        offsets + copy * w.offsets.size(), b, workspace, m, n, k, splitK);
  };
  auto empty = [&] { emptyBlock<<<dim3(1, blocks), STC_THREADS, SHARED_BYTES>>>(); };
  CHECK(cudaFuncSetAttribute(emptyBlock, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES));
  for (int i = 0; i < 3; i++) timedMs(stc);
  std::vector<double> stcUs, emptyUs, kernelUs;
  for (int i = 0; i < LAUNCHES; i++) kernelUs.push_back(1000 * timedMs(kernelOnly));
  for (int i = 0; i < LAUNCHES; i++) stcUs.push_back(1000 * timedMs(stc));
  std::vector<long long> h(size_t(MARK_SLOTS) * blocks);
  CHECK(cudaMemcpy(h.data(), marks, sizeof(long long) * h.size(), cudaMemcpyDeviceToHost));
#ifdef STC_ITERATION_MARKS
  // The last launch was the API's, as for the block marks; the empty kernel below marks no iteration.
  std::vector<long long> it(iterationSlots);
  CHECK(cudaMemcpy(it.data(), iterationMarks, sizeof(long long) * it.size(), cudaMemcpyDeviceToHost));
#endif
  for (int i = 0; i < LAUNCHES; i++) emptyUs.push_back(1000 * timedMs(empty));
  std::vector<long long> e(size_t(MARK_SLOTS) * blocks);
  CHECK(cudaMemcpy(e.data(), marks, sizeof(long long) * e.size(), cudaMemcpyDeviceToHost));

  long long first = h[5], last = h[6], emptyFirst = e[5], emptyLast = e[6];
  std::vector<double> prologue, loop, epilogue, life;
  for (int i = 0; i < blocks; i++) {
    const long long* s = &h[size_t(i) * MARK_SLOTS];
    first = std::min(first, s[5]);
    last = std::max(last, s[6]);
    emptyFirst = std::min(emptyFirst, e[size_t(i) * MARK_SLOTS + 5]);
    emptyLast = std::max(emptyLast, e[size_t(i) * MARK_SLOTS + 6]);
    prologue.push_back(double(s[1] - s[0]));
    loop.push_back(double(s[2] - s[1]));
    epilogue.push_back(double(s[3] - s[2]));
    life.push_back(double(s[3] - s[0]));
  }
  printf("{\"m\":%d,\"k\":%d,\"n\":%d,\"sparsity\":%.2f,\"splitK\":%d,\"blocks\":%d,\"iterations\":%d,"
         "\"eventUs\":%.3f,\"kernelEventUs\":%.3f,\"emptyEventUs\":%.3f,\"spanUs\":%.3f,\"emptySpanUs\":%.3f,"
         "\"prologueCycles\":%.0f,\"loopCycles\":%.0f,\"epilogueCycles\":%.0f,\"lifeCycles\":%.0f}\n",
         m, k, n, sparsity, splitK, blocks, iterations, median(stcUs), median(kernelUs), median(emptyUs), (last - first) / 1000.0,
         (emptyLast - emptyFirst) / 1000.0, median(prologue), median(loop), median(epilogue), median(life));
  if (argc > 5) {
    FILE* csv = openCsv(argv[5], "block,sm,startNs,endNs,prologueCycles,loopCycles,epilogueCycles");
    if (!csv) return 1;
    for (int i = 0; i < blocks; i++) {
      const long long* s = &h[size_t(i) * MARK_SLOTS];
      fprintf(csv, "%d,%lld,%lld,%lld,%lld,%lld,%lld\n", i, s[4], s[5] - first, s[6] - first, s[1] - s[0],
              s[2] - s[1], s[3] - s[2]);
    }
    fclose(csv);
  }
#ifdef STC_ITERATION_MARKS
  if (argc > 6) {
    FILE* csv = openCsv(argv[6], "block,iteration,endCycles,endNs");
    if (!csv) return 1;
    for (int i = 0; i < blocks; i++)
      for (int j = 0; j < iterations - 1; j++) {
        const long long* slot = &it[(size_t(i) * MAX_ITERATIONS + j) * 2];
        fprintf(csv, "%d,%d,%lld,%lld\n", i, j, slot[0] - h[size_t(i) * MARK_SLOTS + 1], slot[1] - first);
      }
    fclose(csv);
  }
#endif
  return 0;
}
