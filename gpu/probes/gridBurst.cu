// How long the whole grid's burst of tile loads takes to drain from the DRAM when every block
// issues its tile at once, waits for all of it, and then leaves the DRAM idle while it works on it
// (gpu/probes/README.md, "Seventh batch"; docs/system-model.md, "Flash-LLM by blocks per SM").
//
// Flash-LLM's blocks start together and do the same work per iteration, so they load their
// compressed tiles together (all of a thread's LDG.128 in flight), wait for the last, extract and
// meet at a barrier while the DRAM idles. The model puts that burst's drain on each block's chain
// at the DRAM's peak; tileBurst.cu measured a steady 5-deep stream instead (its compiler kept five
// loads in flight and there was no idle phase). This program replays the burst itself: G blocks
// of 128 threads (69,632 B of shared memory each, as Flash-LLM, so at most three per SM), V
// vectors of 16 B per thread issued back to back, a barrier, their registers stored to shared
// memory (the extract's stores), a barrier, then `gap` cycles of spinning (the rest of the
// extract), a barrier, next tile. Every iteration reads fresh lines (the grid's tiles lie one
// after another), so every byte comes from the DRAM.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o gridBurst gridBurst.cu
// Run:   ./gridBurst <blocks> <vectors per thread 4..24> <gap cycles> [iterations 16]
// Prints one JSON line: per block-iteration, the burst's wait (first load issued to the barrier
// after the last arrived) and the whole iteration, medians over the blocks (clock64 on the
// block's SM), for the first iteration (every block starts together) and the later ones.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include "eventTimer.cuh"

constexpr int THREADS = 128, SHARED_BYTES = 69632;

__device__ __forceinline__ uint4 load(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// The tile's registers go to shared memory, as Flash-LLM's extract does: a store to shared memory
// cannot move above the barrier before it, so every register stays live until every load has
// been issued (a register-only use would be moved up between the loads by the compiler).
__device__ __forceinline__ void stage(uint4* slot, const uint4& v) {
  const unsigned address = unsigned(__cvta_generic_to_shared(slot));
  asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(address), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w));
}

template <int V>
__global__ void gridBurst(const uint4* buf, int iterations, long long gap, unsigned* sink, long long* waits,
                          long long* periods) {
  extern __shared__ uint4 shared[];
  long long firstWait = 0, laterWaits = 0;
  __syncthreads();
  const long long start = clock64();
  long long firstPeriod = 0;
  for (int it = 0; it < iterations; it++) {
    const uint4* tile = buf + (size_t(it) * gridDim.x + blockIdx.x) * V * THREADS;
    const long long issued = clock64();
    uint4 v[V];
#pragma unroll
    for (int i = 0; i < V; i++) v[i] = load(tile + threadIdx.x + i * THREADS);
    // Flash-LLM's SASS has its MMAs and a barrier between its tile loads and their extract.
    __syncthreads();
#pragma unroll
    for (int i = 0; i < V; i++) stage(shared + threadIdx.x + i * THREADS, v[i]);
    __syncthreads();
    const long long arrived = clock64();
    if (it == 0) firstWait = arrived - issued;
    else laterWaits += arrived - issued;
    while (clock64() - arrived < gap) {
    }
    __syncthreads();
    if (it == 0) firstPeriod = clock64() - start;
  }
  const long long end = clock64();
  if (shared[(threadIdx.x + 1) % THREADS].x == 0x9e3779b9u) sink[0] = shared[threadIdx.x].y;
  if (threadIdx.x == 0) {
    waits[2 * blockIdx.x] = firstWait;
    waits[2 * blockIdx.x + 1] = laterWaits / max(1, iterations - 1);
    periods[2 * blockIdx.x] = firstPeriod;
    periods[2 * blockIdx.x + 1] = (end - start - firstPeriod) / max(1, iterations - 1);
  }
}

template <int V>
static float launch(const uint4* buf, int blocks, int iterations, long long gap, unsigned* sink, long long* waits,
                    long long* periods) {
  CHECK(cudaFuncSetAttribute(gridBurst<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES));
  return timedMs(
      [&] { gridBurst<V><<<blocks, THREADS, SHARED_BYTES>>>(buf, iterations, gap, sink, waits, periods); });
}

static float dispatch(int v, const uint4* buf, int blocks, int iterations, long long gap, unsigned* sink,
                      long long* waits, long long* periods) {
  switch (v) {
    case 4: return launch<4>(buf, blocks, iterations, gap, sink, waits, periods);
    case 8: return launch<8>(buf, blocks, iterations, gap, sink, waits, periods);
    case 10: return launch<10>(buf, blocks, iterations, gap, sink, waits, periods);
    case 13: return launch<13>(buf, blocks, iterations, gap, sink, waits, periods);
    case 16: return launch<16>(buf, blocks, iterations, gap, sink, waits, periods);
    case 20: return launch<20>(buf, blocks, iterations, gap, sink, waits, periods);
    case 24: return launch<24>(buf, blocks, iterations, gap, sink, waits, periods);
    default: fprintf(stderr, "gridBurst: vectors per thread must be 4, 8, 10, 13, 16, 20 or 24\n"); exit(2);
  }
}

static double median(std::vector<long long> values) {
  std::sort(values.begin(), values.end());
  return double(values[values.size() / 2]);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: gridBurst <blocks> <vectors per thread> <gap cycles> [iterations]\n");
    return 2;
  }
  const int blocks = atoi(argv[1]), v = atoi(argv[2]);
  const long long gap = atoll(argv[3]);
  const int iterations = argc > 4 ? atoi(argv[4]) : 16;
  if (blocks < 1 || v < 1 || gap < 0 || iterations < 2) {
    fprintf(stderr, "gridBurst: bad arguments\n");
    return 2;
  }
  const size_t runBytes = size_t(blocks) * iterations * v * THREADS * sizeof(uint4);
  uint4* buf;
  unsigned* sink;
  long long *waits, *periods;
  // Two regions: the warm-up launch reads the second, so the timed one finds none of its lines in the L2.
  CHECK(cudaMalloc(&buf, 2 * runBytes));
  CHECK(cudaMemset(buf, 0x5a, 2 * runBytes));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&waits, 2 * blocks * sizeof(long long)));
  CHECK(cudaMalloc(&periods, 2 * blocks * sizeof(long long)));
  dispatch(v, buf + runBytes / sizeof(uint4), blocks, iterations, gap, sink, waits, periods);
  const float ms = dispatch(v, buf, blocks, iterations, gap, sink, waits, periods);
  std::vector<long long> w(2 * blocks), p(2 * blocks);
  CHECK(cudaMemcpy(w.data(), waits, w.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(p.data(), periods, p.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<long long> firstWait, laterWait, firstPeriod, laterPeriod;
  for (int b = 0; b < blocks; b++) {
    firstWait.push_back(w[2 * b]);
    laterWait.push_back(w[2 * b + 1]);
    firstPeriod.push_back(p[2 * b]);
    laterPeriod.push_back(p[2 * b + 1]);
  }
  const double gridBytes = double(blocks) * v * THREADS * sizeof(uint4);
  printf("{\"probe\":\"gridBurst\",\"blocks\":%d,\"vectors\":%d,\"gapCycles\":%lld,\"iterations\":%d,"
         "\"gridBytesPerIteration\":%.0f,\"firstWaitMedian\":%.0f,\"waitMedian\":%.0f,\"waitMax\":%.0f,"
         "\"firstPeriodMedian\":%.0f,\"periodMedian\":%.0f,\"ms\":%.4f,\"GBps\":%.1f}\n",
         blocks, v, gap, iterations, gridBytes, median(firstWait), median(laterWait),
         double(*std::max_element(laterWait.begin(), laterWait.end())), median(firstPeriod), median(laterPeriod), ms,
         runBytes / (ms * 1e6));
  CHECK(cudaFree(buf));
  return 0;
}
