// Probes of how GH100's two L2 partitions keep a footprint between one and two partitions
// (gpu/probes/README.md; the open question of docs/system-model.md, "stream footprint 40 MiB").
//
// The H200 harness's read-bandwidth row drops from 12.4 TB/s at 24 MiB to 10.5 at 40 MiB, where
// the model keeps 12.0; RRZE-HPC's gpu-benches L2 program shows no drop on the same GPU. The
// model's answer depends on which SMs read which lines in successive passes, which the harness
// description leaves open. This program reads one footprint three ways, so one run says which
// reading the row was and how the copies behave:
//   fixed     every pass, each thread reads the same lines (one launch, passes in the kernel);
//   rotating  one grid-stride walk over the total, address = index mod footprint (the lines a
//             thread reads move between passes whenever the footprint is no multiple of a step);
//   relaunch  one launch per pass (the block scheduler may put a block on another SM each time).
// and times the harness's pointer chase (one thread, random cyclic order of 128-byte lines).
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o l2Partitions l2Partitions.cu
// Run:   ./l2Partitions stream <footprint MiB> <fixed|rotating|relaunch> [total MiB 2048]
//                       [blocks per SM 8] [threads 256] [loads in flight 4] [cg|ca]
//        ./l2Partitions chase <footprint KiB> [loads 20000]
//        ./l2Partitions blockmap [blocks per SM 8] [threads 256]
//        ./l2Partitions gather <blocks> [threads 128]
// Each run prints one JSON line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <random>
#include <cuda_runtime.h>
#include "eventTimer.cuh"

// Which cache a stream's loads may allocate in: L2 only (`ld.global.cg`, the harness's
// description) or L1 and L2 (`ld.global.ca`, the default load), to tell the L2's own rate from
// reads the SM's L1 serves.
enum class LoadKind { cg, ca };

template <LoadKind KIND>
__device__ __forceinline__ uint4 load(const uint4* p) {
  uint4 v;
  if (KIND == LoadKind::cg)
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
  else
    asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
  return v;
}

// Passes over the footprint with the same thread-to-line mapping every pass; IN_FLIGHT
// independent 16-byte loads per thread (the harness keeps 4).
template <int IN_FLIGHT, LoadKind KIND>
__global__ void streamFixed(const uint4* buf, size_t elems, int passes, unsigned* sink) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (int pass = 0; pass < passes; pass++) {
    for (size_t i = tid; i < elems; i += IN_FLIGHT * grid) {
      uint4 v[IN_FLIGHT];
#pragma unroll
      for (int j = 0; j < IN_FLIGHT; j++) {
        const size_t k = i + j * grid;
        v[j] = k < elems ? load<KIND>(buf + k) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int j = 0; j < IN_FLIGHT; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    }
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;  // never true for the zeroed buffer; keeps the loads
}

// One grid-stride walk over `total` elements, each read at index mod footprint.
template <int IN_FLIGHT, LoadKind KIND>
__global__ void streamRotating(const uint4* buf, size_t elems, size_t total, unsigned* sink) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (size_t i = tid; i < total; i += IN_FLIGHT * grid) {
    uint4 v[IN_FLIGHT];
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; j++) {
      const size_t k = i + j * grid;
      v[j] = k < total ? load<KIND>(buf + k % elems) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// One thread walks the whole cyclic permutation stored in `next` (line indices) once to warm the
// caches, as the harness's warm rows do, then times `loads` steps of it.
__global__ void chase(const unsigned* next, unsigned lines, int loads, unsigned start, long long* cycles,
                      unsigned* sink) {
  unsigned at = start;
  for (unsigned i = 0; i < lines; i++) at = next[at * 32];
  const long long t0 = clock64();
  for (int i = 0; i < loads; i++) at = next[at * 32];
  const long long t1 = clock64();
  cycles[0] = t1 - t0;
  sink[0] = at;
}

// LOADS 4-byte loads per thread, each to a pseudo-random 32-byte sector of an L2-resident
// footprint (so every load is a line of its own, as the STC proxy's value loads are), 4 in flight.
template <int LOADS>
__global__ void gather(const unsigned* buf, unsigned sectors, unsigned* sink) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned acc = 0, state = tid * 2654435761u + 1;
  for (int i = 0; i < LOADS; i += 4) {
    unsigned v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      state = state * 1664525u + 1013904223u;
      const unsigned* p = buf + size_t(state % sectors) * 8;
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v[j]) : "l"(p));
    }
#pragma unroll
    for (int j = 0; j < 4; j++) acc ^= v[j];
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

__global__ void smOfBlock(unsigned* sm) {
  if (threadIdx.x == 0) {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    sm[blockIdx.x] = id;
  }
}

static int smCount() {
  int device = 0, count = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

static double clockGhz() {
  int device = 0, khz = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  return khz / 1e6;
}

using FixedKernel = void (*)(const uint4*, size_t, int, unsigned*);
using RotatingKernel = void (*)(const uint4*, size_t, size_t, unsigned*);
struct StreamKernels {
  FixedKernel fixed;
  RotatingKernel rotating;
};

template <int IN_FLIGHT>
static StreamKernels kernelsFor(LoadKind kind) {
  if (kind == LoadKind::cg) return {streamFixed<IN_FLIGHT, LoadKind::cg>, streamRotating<IN_FLIGHT, LoadKind::cg>};
  return {streamFixed<IN_FLIGHT, LoadKind::ca>, streamRotating<IN_FLIGHT, LoadKind::ca>};
}

static bool streamKernels(int inFlight, LoadKind kind, StreamKernels* out) {
  switch (inFlight) {
    case 1: *out = kernelsFor<1>(kind); return true;
    case 2: *out = kernelsFor<2>(kind); return true;
    case 4: *out = kernelsFor<4>(kind); return true;
    case 8: *out = kernelsFor<8>(kind); return true;
    default: return false;
  }
}

static int runStream(size_t footprintMiB, const char* mapping, size_t totalMiB, int blocksPerSm, int threads,
                     int inFlight, const char* loadName) {
  const bool cached = strcmp(loadName, "ca") == 0;
  StreamKernels kernels;
  if ((!cached && strcmp(loadName, "cg") != 0) || !streamKernels(inFlight, cached ? LoadKind::ca : LoadKind::cg, &kernels)) {
    fprintf(stderr, "l2Partitions: in flight %d, load %s: give 1, 2, 4 or 8 and cg or ca\n", inFlight, loadName);
    return 2;
  }
  const size_t footprint = footprintMiB << 20, total = totalMiB << 20;
  const size_t elems = footprint / sizeof(uint4), totalElems = total / sizeof(uint4);
  const int passes = int((total + footprint - 1) / footprint);
  const int blocks = smCount() * blocksPerSm;
  uint4* buf;
  unsigned* sink;
  CHECK(cudaMalloc(&buf, footprint));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemset(buf, 0, footprint));
  const bool fixed = strcmp(mapping, "fixed") == 0, rotating = strcmp(mapping, "rotating") == 0,
             relaunch = strcmp(mapping, "relaunch") == 0;
  if (!fixed && !rotating && !relaunch) {
    fprintf(stderr, "l2Partitions: mapping %s: give fixed, rotating or relaunch\n", mapping);
    return 2;
  }
  // The untimed first run warms the L2.
  const double ms = medianMs(5, [&] {
    if (fixed) kernels.fixed<<<blocks, threads>>>(buf, elems, passes, sink);
    if (rotating) kernels.rotating<<<blocks, threads>>>(buf, elems, totalElems, sink);
    if (relaunch)
      for (int pass = 0; pass < passes; pass++) kernels.fixed<<<blocks, threads>>>(buf, elems, 1, sink);
  });
  const double bytes = rotating ? double(total) : double(passes) * double(footprint);
  printf("{\"probe\":\"stream\",\"footprintBytes\":%zu,\"mapping\":\"%s\",\"bytes\":%.0f,\"blocksPerSm\":%d,"
         "\"threads\":%d,\"inFlight\":%d,\"load\":\"%s\",\"medianMs\":%.4f,\"GBps\":%.1f}\n",
         footprint, mapping, bytes, blocksPerSm, threads, inFlight, loadName, ms, bytes / ms / 1e6);
  CHECK(cudaFree(buf));
  CHECK(cudaFree(sink));
  return 0;
}

static int runChase(size_t footprintKiB, int loads) {
  const size_t lines = (footprintKiB << 10) / 128;
  std::vector<unsigned> order(lines), next(lines * 32, 0);
  for (size_t i = 0; i < lines; i++) order[i] = unsigned(i);
  std::mt19937 random(1);
  std::shuffle(order.begin(), order.end(), random);
  for (size_t i = 0; i < lines; i++) next[size_t(order[i]) * 32] = order[(i + 1) % lines];
  unsigned *deviceNext, *sink;
  long long* cycles;
  CHECK(cudaMalloc(&deviceNext, next.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&cycles, sizeof(long long)));
  CHECK(cudaMemcpy(deviceNext, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  chase<<<1, 1>>>(deviceNext, unsigned(lines), loads, order[0], cycles, sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  long long hostCycles = 0;
  CHECK(cudaMemcpy(&hostCycles, cycles, sizeof(long long), cudaMemcpyDeviceToHost));
  const double perLoad = double(hostCycles) / loads;
  printf("{\"probe\":\"chase\",\"footprintBytes\":%zu,\"loads\":%d,\"cyclesPerLoad\":%.1f,\"nsPerLoad\":%.1f}\n",
         footprintKiB << 10, loads, perLoad, perLoad / clockGhz());
  CHECK(cudaFree(deviceNext));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(cycles));
  return 0;
}

// How many lines an SM's misses reach the L2 with, by how many SMs ask at once: blocks of
// `threads` on `blocks` SMs (one block each up to the SM count), random sectors of a 16 MiB
// footprint. Per SM and cycle at the clock the SMs report (streams run at the maximum).
static int runGather(int blocks, int threads) {
  constexpr int LOADS = 1024;
  const size_t footprint = size_t(16) << 20;
  unsigned *buf, *sink;
  CHECK(cudaMalloc(&buf, footprint));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemset(buf, 0, footprint));
  const double ms = medianMs(5, [&] { gather<LOADS><<<blocks, threads>>>(buf, unsigned(footprint / 32), sink); });
  const double loads = double(blocks) * threads * LOADS;
  const int active = std::min(blocks, smCount());
  printf("{\"probe\":\"gather\",\"blocks\":%d,\"threads\":%d,\"activeSms\":%d,\"loads\":%.0f,\"medianMs\":%.4f,"
         "\"gLoadsPerSecond\":%.2f,\"linesPerActiveSmCycle\":%.3f}\n",
         blocks, threads, active, loads, ms, loads / ms / 1e6, loads / (ms * 1e6 * clockGhz()) / active);
  CHECK(cudaFree(buf));
  CHECK(cudaFree(sink));
  return 0;
}

// Whether a block lands on the same SM in consecutive launches (the relaunch mapping's premise).
static int runBlockMap(int blocksPerSm, int threads) {
  const int blocks = smCount() * blocksPerSm;
  unsigned* sm;
  CHECK(cudaMalloc(&sm, blocks * sizeof(unsigned)));
  std::vector<unsigned> first(blocks), later(blocks);
  smOfBlock<<<blocks, threads>>>(sm);
  CHECK(cudaMemcpy(first.data(), sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int same = 0;
  for (int launch = 0; launch < 10; launch++) {
    smOfBlock<<<blocks, threads>>>(sm);
    CHECK(cudaMemcpy(later.data(), sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) same += first[b] == later[b];
  }
  printf("{\"probe\":\"blockmap\",\"blocks\":%d,\"sameSmShare\":%.4f,\"firstSms\":[", blocks, same / (10.0 * blocks));
  for (int b = 0; b < blocks && b < 264; b++) printf("%s%u", b ? "," : "", first[b]);
  printf("]}\n");
  CHECK(cudaFree(sm));
  return 0;
}

int main(int argc, char** argv) {
  const char* probe = argc > 1 ? argv[1] : "";
  if (strcmp(probe, "stream") == 0 && argc >= 4)
    return runStream(strtoull(argv[2], nullptr, 10), argv[3], argc > 4 ? strtoull(argv[4], nullptr, 10) : 2048,
                     argc > 5 ? atoi(argv[5]) : 8, argc > 6 ? atoi(argv[6]) : 256, argc > 7 ? atoi(argv[7]) : 4,
                     argc > 8 ? argv[8] : "cg");
  if (strcmp(probe, "chase") == 0 && argc >= 3)
    return runChase(strtoull(argv[2], nullptr, 10), argc > 3 ? atoi(argv[3]) : 20000);
  if (strcmp(probe, "blockmap") == 0) return runBlockMap(argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : 256);
  if (strcmp(probe, "gather") == 0 && argc >= 3) return runGather(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 128);
  fprintf(stderr,
          "usage: l2Partitions stream <footprint MiB> <fixed|rotating|relaunch> [total MiB] [blocks/SM] [threads]\n"
          "                          [in flight 1|2|4|8] [cg|ca]\n"
          "       l2Partitions chase <footprint KiB> [loads]\n"
          "       l2Partitions blockmap [blocks/SM] [threads]\n"
          "       l2Partitions gather <blocks> [threads]\n");
  return 2;
}
