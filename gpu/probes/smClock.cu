// The SM clock while the GPU works: the rate at which the model's cycle counts become time.
//
// Nsight Compute, with the clocks left alone, timed every harness kernel at 1.79–1.82 GHz, where
// the h200 profile converts cycles at 1.98 GHz (the boost clock). Whether plain timed runs see the
// same clock decides how the model should convert. This probe runs one long kernel and has each
// block read clock64 (its SM's cycles) and %globaltimer (nanoseconds) at its start and end: their
// ratio is the SM clock over the block's life, whatever the driver reports between samples.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o smClock smClock.cu
// Run:   ./smClock spin   [blocks per SM 2] [milliseconds 300]           (FMA chains, no memory)
//        ./smClock stream [blocks per SM 2] [milliseconds 300] [MiB 2048] (ld.global.cg, grid-stride)
//        ./smClock burst  [idle ms 1000] [kernel µs 60] [launches 14]     (the harness's pattern: the
//                         GPU idle while the host prepares, then short launches back to back)
// Prints one JSON line: the blocks' clock in GHz (median, min, max), the kernel's event time and,
// for a stream, the bytes per second it read; for a burst, each launch's median clock and time.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>
#include "cycleClock.cuh"
#include "eventTimer.cuh"

constexpr int THREADS = 256;

// Per block: cycles and nanoseconds between its first and last barrier.
struct Span {
  long long cycles;
  unsigned long long nanoseconds;
};

__device__ void record(Span* spans, long long c0, unsigned long long g0) {
  __syncthreads();
  if (threadIdx.x == 0) spans[blockIdx.x] = {clock64() - c0, globalNsNow() - g0};
}

// FMA chains, or (Tensor) chains of the tensor cores' mma.sync, the harness kernels' instruction.
template <bool Tensor>
__global__ void spin(long long cycles, Span* spans, float* sink) {
  __syncthreads();
  const long long c0 = clock64();
  const unsigned long long g0 = globalNsNow();
  float a = threadIdx.x, b = 1.0001f;
  float d[4] = {a, a, a, a};
  const unsigned x = 0x3c003c00u * (threadIdx.x & 1);  // half-precision 1.0 pairs, or zeros
  while (clock64() - c0 < cycles)
    for (int i = 0; i < 64; i++)
      if constexpr (Tensor)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, "
            "{%0,%1,%2,%3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(x));
      else
        a = fmaf(a, b, 0.5f);
  a += d[0] + d[1] + d[2] + d[3];
  if (a == 12345.f) sink[0] = a;  // keeps the chains
  record(spans, c0, g0);
}

__global__ void stream(const uint4* data, size_t vectors, int passes, Span* spans, unsigned* sink) {
  __syncthreads();
  const long long c0 = clock64();
  const unsigned long long g0 = globalNsNow();
  unsigned acc = 0;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int pass = 0; pass < passes; pass++)
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
      uint4 v;
      asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                   : "l"(data + i));
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  if (acc == 0x12345678u) sink[0] = acc;
  record(spans, c0, g0);
}

// The blocks' clocks in GHz, sorted.
std::vector<double> sortedGhz(const Span* spans, int blocks) {
  std::vector<Span> host(blocks);
  CHECK(cudaMemcpy(host.data(), spans, blocks * sizeof(Span), cudaMemcpyDeviceToHost));
  std::vector<double> ghz;
  for (const Span& span : host)
    if (span.nanoseconds > 0) ghz.push_back(double(span.cycles) / double(span.nanoseconds));
  std::sort(ghz.begin(), ghz.end());
  return ghz;
}

// After `idleMs` with the GPU idle, `launches` spins of `micros` each (counted at 1.98 GHz), one
// block per SM: the clock each launch ran at, as the harness's timed launches would see it.
int burst(int idleMs, double micros, int launches) {
  cudaDeviceProp props;
  CHECK(cudaGetDeviceProperties(&props, 0));
  const int blocks = props.multiProcessorCount;
  Span* spans;
  float* sink;
  CHECK(cudaMalloc(&spans, blocks * sizeof(Span)));
  CHECK(cudaMalloc(&sink, 64));
  CHECK(cudaDeviceSynchronize());
  usleep(idleMs * 1000);
  printf("{\"probe\":\"smClock\",\"mode\":\"burst\",\"idleMs\":%d,\"micros\":%.1f,\"launches\":[", idleMs, micros);
  for (int launch = 0; launch < launches; launch++) {
    const float elapsed = timedMs([&] { spin<false><<<blocks, THREADS>>>((long long)(micros * 1980), spans, sink); });
    printf("%s{\"ghz\":%.4f,\"us\":%.1f}", launch ? "," : "", sortedGhz(spans, blocks)[blocks / 2], elapsed * 1000);
  }
  printf("]}\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2 || (strcmp(argv[1], "spin") && strcmp(argv[1], "mma") && strcmp(argv[1], "stream") && strcmp(argv[1], "burst"))) {
    fprintf(stderr, "usage: smClock spin|mma|stream [blocks per SM] [milliseconds] [MiB] | burst [idle ms] [µs] [launches]\n");
    return 2;
  }
  if (!strcmp(argv[1], "burst")) return burst(argc > 2 ? atoi(argv[2]) : 1000, argc > 3 ? atof(argv[3]) : 60,
                                              argc > 4 ? atoi(argv[4]) : 14);
  const bool isMma = !strcmp(argv[1], "mma");
  const bool isSpin = isMma || !strcmp(argv[1], "spin");
  const int blocksPerSm = argc > 2 ? atoi(argv[2]) : 2;
  const double milliseconds = argc > 3 ? atof(argv[3]) : 300;
  const size_t mib = argc > 4 ? atol(argv[4]) : 2048;
  cudaDeviceProp props;
  CHECK(cudaGetDeviceProperties(&props, 0));
  const int blocks = blocksPerSm * props.multiProcessorCount;
  Span* spans;
  float* sink;
  CHECK(cudaMalloc(&spans, blocks * sizeof(Span)));
  CHECK(cudaMalloc(&sink, 64));
  uint4* data = nullptr;
  const size_t vectors = mib * (1 << 20) / sizeof(uint4);
  if (!isSpin) {
    CHECK(cudaMalloc(&data, vectors * sizeof(uint4)));
    CHECK(cudaMemset(data, 1, vectors * sizeof(uint4)));
  }
  // A stream's passes: one timed pass sets how many fill the asked time.
  auto launch = [&](int passes) {
    return timedMs([&] {
      if (isMma)
        spin<true><<<blocks, THREADS>>>((long long)(milliseconds * 1.98e6), spans, sink);
      else if (isSpin)
        spin<false><<<blocks, THREADS>>>((long long)(milliseconds * 1.98e6), spans, sink);
      else
        stream<<<blocks, THREADS>>>(data, vectors, passes, spans, (unsigned*)sink);
    });
  };
  int passes = 1;
  if (!isSpin) passes = std::max(1, int(milliseconds / launch(1)));
  launch(passes);  // warm: the clock settles under load
  const float elapsed = launch(passes);
  const std::vector<double> ghz = sortedGhz(spans, blocks);
  printf("{\"probe\":\"smClock\",\"mode\":\"%s\",\"blocksPerSm\":%d,\"passes\":%d,\"mib\":%zu,\"ms\":%.3f,"
         "\"ghzMedian\":%.4f,\"ghzMin\":%.4f,\"ghzMax\":%.4f",
         argv[1], blocksPerSm, passes, isSpin ? 0 : mib, elapsed, ghz[ghz.size() / 2], ghz.front(), ghz.back());
  if (!isSpin) printf(",\"gbPerSecond\":%.1f", double(vectors) * sizeof(uint4) * passes / (elapsed * 1e6));
  printf("}\n");
  return 0;
}
