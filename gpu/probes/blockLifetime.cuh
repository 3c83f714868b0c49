// A register-staged kernel's blocks timed from inside (stcLifetime.cu, flashLifetime.cu): the
// kernel is the harness's own, copied with four marks by markKernel.sh, where thread 0 of each
// block reads clock64 (and %globaltimer at its start and end), and, built with
// -DBLOCK_ITERATION_MARKS, at the end of each K-loop iteration. A driver includes this before the
// kernel's source, builds its weights and calls runLifetime with its launches.
//
// runLifetime prints one JSON line (event-timed µs of the API's call, of its main kernel alone and
// of an empty kernel of the same grid, block and shared memory, medians of 20 launches; the
// blocks' medians from the last launch); blocks.csv gets one row per block; iterations.csv one row
// per block and K-loop iteration: its end in cycles since the block's mark 1 and in ns since the
// first block started.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "eventTimer.cuh"

// Per block: clock64 at marks 0–3, its SM, %globaltimer at mark 0 and at mark 3.
constexpr int MARK_SLOTS = 8;
__constant__ long long* blockMarks;

__device__ __forceinline__ long long globalTimer() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void blockMark(int point) {
  if (threadIdx.x != 0) return;
  long long* slot = blockMarks + size_t(blockIdx.y) * MARK_SLOTS;
  slot[point] = clock64();
  if (point == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    slot[4] = sm;
    slot[5] = globalTimer();
  }
  if (point == 3) slot[6] = globalTimer();
}
#define BLOCK_MARK(point) blockMark(point)

// Built with -DBLOCK_ITERATION_MARKS, thread 0 of each block also records clock64 and
// %globaltimer as each K-loop iteration ends (two stores per iteration, the loop's only addition);
// otherwise the mark is nothing, and the kernel compiles as it did before the mark was placed.
#ifdef BLOCK_ITERATION_MARKS
constexpr int MAX_ITERATIONS = 64;
__constant__ long long* blockIterationMarks;
__device__ __forceinline__ void blockIterationMark(int iteration) {
  if (threadIdx.x != 0 || iteration >= MAX_ITERATIONS) return;
  long long* slot = blockIterationMarks + (size_t(blockIdx.y) * MAX_ITERATIONS + iteration) * 2;
  slot[0] = clock64();
  slot[1] = globalTimer();
}
#define BLOCK_ITERATION_MARK(iteration) blockIterationMark(iteration)
#else
#define BLOCK_ITERATION_MARK(iteration)
#endif

__global__ void emptyBlock() {
  blockMark(0);
  blockMark(3);
}

// Launches per timing, and copies of the weights used in turn: the harness's four, or as many as
// -DLIFETIME_COPIES=n asks (enough that no grid's copies stay in the L2 between their turns).
#ifndef LIFETIME_COPIES
#define LIFETIME_COPIES 4
#endif
constexpr int LAUNCHES = 20, COPIES = LIFETIME_COPIES;

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

// The shape a run takes from its arguments: <M> <K> <sparsity %> <split-K> [blocks.csv [iterations.csv]].
struct LifetimeShape {
  int m, k, n, splitK, iterations, blocks;
  double sparsity;
};

// The shape, or false with the reason on stderr.
static bool lifetimeShape(int argc, char** argv, const char* name, LifetimeShape& shape) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s <M> <K> <sparsity %%> <split-K> [blocks.csv [iterations.csv]]\n", name);
    return false;
  }
#ifndef BLOCK_ITERATION_MARKS
  if (argc > 6) {
    fprintf(stderr, "%s: iterations.csv needs a build with -DBLOCK_ITERATION_MARKS\n", name);
    return false;
  }
#endif
  shape.m = atoi(argv[1]);
  shape.k = atoi(argv[2]);
  shape.n = 8;
  shape.splitK = atoi(argv[4]);
  shape.sparsity = atof(argv[3]) / 100;
  if (shape.m % 256 || shape.splitK < 1 || shape.k % (64 * shape.splitK)) {
    fprintf(stderr, "%s: M must be a multiple of 256 and K of 64 × split-K\n", name);
    return false;
  }
  shape.iterations = shape.k / 64 / shape.splitK;
  shape.blocks = shape.m * shape.splitK / 256;
  return true;
}

// What both kernels read and write besides their weights: B (K × 16 halves of 1.0, the harness's
// N = 8 padded to its tile), C and the split-K workspace.
struct LifetimeOperands {
  half *b, *c, *workspace;
};

static LifetimeOperands lifetimeOperands(const LifetimeShape& shape) {
  LifetimeOperands o;
  o.b = upload(std::vector<half>(size_t(shape.k) * 16, __float2half(1.0f)), 1);
  CHECK(cudaMalloc(&o.c, sizeof(half) * shape.m * shape.n));
  CHECK(cudaMalloc(&o.workspace, sizeof(half) * shape.m * shape.n * shape.splitK));
  return o;
}

// A driver's launches: the API's call (main kernel and split-K reduction) and its main kernel
// alone, each with the weights' copy given; the block's threads and dynamic shared memory; the
// iterations of its K loop (one per tile less one for the STC proxy, whose epilogue computes the
// last tile; one per tile for Flash-LLM).
struct LifetimeLaunches {
  std::function<void(int copy)> api, kernelOnly;
  int threads, sharedBytes, loopIterations;
};

static int runLifetime(int argc, char** argv, const char* name, const LifetimeShape& shape,
                       const LifetimeLaunches& run) {
  const int blocks = shape.blocks;
#ifdef BLOCK_ITERATION_MARKS
  if (run.loopIterations > MAX_ITERATIONS) {
    fprintf(stderr, "%s: %d loop iterations, marks for %d\n", name, run.loopIterations, MAX_ITERATIONS);
    return 2;
  }
#else
  (void)name;
#endif
  long long* marks = nullptr;
  CHECK(cudaMalloc(&marks, sizeof(long long) * MARK_SLOTS * blocks));
  CHECK(cudaMemcpyToSymbol(blockMarks, &marks, sizeof(marks)));
#ifdef BLOCK_ITERATION_MARKS
  long long* iterationMarks = nullptr;
  const size_t iterationSlots = size_t(blocks) * MAX_ITERATIONS * 2;
  CHECK(cudaMalloc(&iterationMarks, sizeof(long long) * iterationSlots));
  CHECK(cudaMemcpyToSymbol(blockIterationMarks, &iterationMarks, sizeof(iterationMarks)));
#endif
  int launch = 0;
  auto api = [&] { run.api(launch++ % COPIES); };
  auto kernelOnly = [&] { run.kernelOnly(launch++ % COPIES); };
  auto empty = [&] { emptyBlock<<<dim3(1, blocks), run.threads, run.sharedBytes>>>(); };
  CHECK(cudaFuncSetAttribute(emptyBlock, cudaFuncAttributeMaxDynamicSharedMemorySize, run.sharedBytes));
  for (int i = 0; i < 3; i++) timedMs(api);
  std::vector<double> apiUs, emptyUs, kernelUs;
  for (int i = 0; i < LAUNCHES; i++) kernelUs.push_back(1000 * timedMs(kernelOnly));
  for (int i = 0; i < LAUNCHES; i++) apiUs.push_back(1000 * timedMs(api));
  std::vector<long long> h(size_t(MARK_SLOTS) * blocks);
  CHECK(cudaMemcpy(h.data(), marks, sizeof(long long) * h.size(), cudaMemcpyDeviceToHost));
#ifdef BLOCK_ITERATION_MARKS
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
         shape.m, shape.k, shape.n, shape.sparsity, shape.splitK, blocks, shape.iterations, median(apiUs),
         median(kernelUs), median(emptyUs), (last - first) / 1000.0, (emptyLast - emptyFirst) / 1000.0, median(prologue),
         median(loop), median(epilogue), median(life));
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
#ifdef BLOCK_ITERATION_MARKS
  if (argc > 6) {
    FILE* csv = openCsv(argv[6], "block,iteration,endCycles,endNs");
    if (!csv) return 1;
    for (int i = 0; i < blocks; i++)
      for (int j = 0; j < run.loopIterations; j++) {
        const long long* slot = &it[(size_t(i) * MAX_ITERATIONS + j) * 2];
        fprintf(csv, "%d,%d,%lld,%lld\n", i, j, slot[0] - h[size_t(i) * MARK_SLOTS + 1], slot[1] - first);
      }
    fclose(csv);
  }
#endif
  return 0;
}
