// How fast an SM takes Flash-LLM's burst of tile loads, by blocks per SM, burst size and the
// shared memory its blocks hold (gpu/probes/README.md; docs/system-model.md, "Flash-LLM on H200").
//
// The model's Flash-LLM is ≈ 100 cycles per staged vector per co-resident block faster than the
// harness on H200: a per-SM cost of its iteration that adds up over the blocks sharing the SM.
// Nsight Compute puts its warps on the global loads of the compressed tile (long scoreboard) and
// the barrier, not on the shared-memory stores (stsScatter.cu rules the store path out). Each
// Flash-LLM iteration issues all its tile loads at once (up to 24 LDG.128 per thread, 128 threads,
// coalesced: vector t + i·128 to thread t), waits for the last, and meets the block at a barrier.
// This program replays exactly that, without the extract: each block streams its own region of a
// buffer far larger than the L2, V vectors per thread per iteration, with S bytes of dynamic shared
// memory per block so that the L1 keeps what the kernel's carve-out leaves (Flash-LLM: 69,632 B
// per block, 3 blocks per SM possible, so the driver takes a ≈ 228 KB carve-out and the L1 keeps
// ≈ 28 KB). If the L1's share bounds the bytes an SM has in flight, cycles per iteration grow with
// blocks × V at a large S and stay near one round trip at a small S.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o tileBurst tileBurst.cu
// Run:   ./tileBurst <vectors per thread 1..24> <blocks per SM 1..3> <shared bytes per block>
//                    [ca|cg] [iterations 64]
//        ./tileBurst props
// Prints one JSON line: cycles per block-iteration (median and max over blocks, clock64 on the
// block's SM), bytes per SM-cycle, and the wall-clock rate.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include "eventTimer.cuh"

constexpr int THREADS = 128, MAX_VECTORS = 24;

template <bool CG>
__device__ __forceinline__ uint4 load(const uint4* p) {
  uint4 v;
  if (CG)
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  else
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// V tile loads per thread in flight, then a use of every one (the extract's wait) and a barrier.
template <int V, bool CG>
__global__ void burst(const uint4* buf, int iterations, unsigned* sink, long long* cycles) {
  extern __shared__ unsigned shared[];
  const uint4* region = buf + size_t(blockIdx.x) * iterations * V * THREADS;
  unsigned acc = 0;
  __syncthreads();
  const long long start = clock64();
  for (int it = 0; it < iterations; it++) {
    const uint4* tile = region + size_t(it) * V * THREADS;
    uint4 v[V];
#pragma unroll
    for (int i = 0; i < V; i++) v[i] = load<CG>(tile + threadIdx.x + i * THREADS);
#pragma unroll
    for (int i = 0; i < V; i++) acc ^= v[i].x ^ v[i].y ^ v[i].z ^ v[i].w;
    __syncthreads();
  }
  const long long end = clock64();
  shared[threadIdx.x] = acc;  // keeps the shared allocation (and so the carve-out) live
  __syncthreads();
  if (shared[(threadIdx.x + 1) % THREADS] == 0x9e3779b9u) sink[0] = acc;
  if (threadIdx.x == 0) cycles[blockIdx.x] = end - start;
}

template <int V, bool CG>
static float launch(const uint4* buf, int blocks, int sharedBytes, int iterations, unsigned* sink, long long* cycles) {
  CHECK(cudaFuncSetAttribute(burst<V, CG>, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedBytes));
  burst<V, CG><<<blocks, THREADS, sharedBytes>>>(buf, iterations, sink, cycles);  // warm-up
  CHECK(cudaGetLastError());
  return timedMs([&] { burst<V, CG><<<blocks, THREADS, sharedBytes>>>(buf, iterations, sink, cycles); });
}

template <bool CG>
static float dispatch(int v, const uint4* buf, int blocks, int sharedBytes, int iterations, unsigned* sink,
                      long long* cycles) {
  switch (v) {
    case 1: return launch<1, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 2: return launch<2, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 4: return launch<4, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 8: return launch<8, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 12: return launch<12, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 16: return launch<16, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 20: return launch<20, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    case 24: return launch<24, CG>(buf, blocks, sharedBytes, iterations, sink, cycles);
    default: fprintf(stderr, "tileBurst: vectors per thread must be 1, 2, 4, 8, 12, 16, 20 or 24\n"); exit(2);
  }
}

static void props() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  printf("{\"name\":\"%s\",\"sms\":%d,\"l2CacheSize\":%d,\"persistingL2CacheMaxSize\":%d,"
         "\"sharedMemPerMultiprocessor\":%zu,\"sharedMemPerBlockOptin\":%zu,\"reservedSharedMemPerBlock\":%zu,"
         "\"regsPerMultiprocessor\":%d,\"memoryBusWidth\":%d}\n",
         p.name, p.multiProcessorCount, p.l2CacheSize, p.persistingL2CacheMaxSize, p.sharedMemPerMultiprocessor,
         p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock, p.regsPerMultiprocessor, p.memoryBusWidth);
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "props") == 0) return props(), 0;
  if (argc < 4) {
    fprintf(stderr, "usage: tileBurst <vectors per thread> <blocks per SM 1..3> <shared bytes per block> [ca|cg] [iterations]\n");
    return 2;
  }
  const int v = atoi(argv[1]), perSm = atoi(argv[2]), sharedBytes = atoi(argv[3]);
  const bool cg = argc > 4 && strcmp(argv[4], "cg") == 0;
  const int iterations = argc > 5 ? atoi(argv[5]) : 64;
  if (v < 1 || v > MAX_VECTORS || perSm < 1 || perSm > 3 || sharedBytes < 1024 || iterations < 1) {
    fprintf(stderr, "tileBurst: bad arguments\n");
    return 2;
  }
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  const int blocks = p.multiProcessorCount * perSm;
  const size_t bytes = size_t(blocks) * iterations * v * THREADS * sizeof(uint4);
  uint4* buf;
  unsigned* sink;
  long long* cycles;
  CHECK(cudaMalloc(&buf, bytes));
  CHECK(cudaMemset(buf, 0x5a, bytes));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&cycles, blocks * sizeof(long long)));
  const float ms = cg ? dispatch<true>(v, buf, blocks, sharedBytes, iterations, sink, cycles)
                      : dispatch<false>(v, buf, blocks, sharedBytes, iterations, sink, cycles);
  std::vector<long long> c(blocks);
  CHECK(cudaMemcpy(c.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  std::sort(c.begin(), c.end());
  int maxBlocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxBlocks, cg ? burst<1, true> : burst<1, false>, THREADS, sharedBytes));
  const double median = double(c[blocks / 2]) / iterations, worst = double(c.back()) / iterations;
  const double blockBytes = double(v) * THREADS * sizeof(uint4);
  printf("{\"probe\":\"tileBurst\",\"vectors\":%d,\"blocksPerSm\":%d,\"sharedBytes\":%d,\"kind\":\"%s\","
         "\"iterations\":%d,\"residentLimit\":%d,\"cyclesPerIterMedian\":%.1f,\"cyclesPerIterMax\":%.1f,"
         "\"bytesPerSmCycle\":%.2f,\"GBps\":%.1f}\n",
         v, perSm, sharedBytes, cg ? "cg" : "ca", iterations, maxBlocks, median, worst,
         perSm * blockBytes / median, bytes / (ms * 1e6));
  CHECK(cudaFree(buf));
  return 0;
}
