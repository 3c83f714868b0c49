// Does a load that hits the L2 wait behind other SMs' reads from DRAM? (gpu/probes/README.md,
// "Forty-fourth batch".) The model's long launches keep more past the L2's size than silicon's: its
// warps that find their lines on chip run ahead of the rest and find more (docs/system-model.md,
// the known misses). In the model a hit waits only for its slice's queue, never for DRAM, so a warp
// that hits runs at the L2's pace whatever the misses around it do. If silicon's L2 holds hits
// behind misses (a slice's pipeline stalled by its full miss queue), its warps cannot run away so.
//
// One thread on one SM walks a random cyclic order of 128-byte lines (ld.global.cg, one load at a
// time, each timed by clock64), while every other SM's blocks stream (ld.global.cg, 16 bytes a
// thread, four loads out, the rotating grid-stride walk of l2Partitions.cu) over a footprint of
// their own: none (they leave at once), one the L2 holds (the slices busy with hits), or one far
// past it (every read from DRAM). In each launch the walk first takes up to 32,768 steps untimed,
// while the stream starts; its steps are timed after that, and the stream stops when they are
// done. A first launch, untimed, brings a small walk's lines into the L2; the timed one goes on
// from where it stopped. With `shared` the other blocks on the walk's SM stream too: does a load of
// a streaming SM wait behind its own SM's loads, where a lone SM's does not wait behind others'?
//
// A launch's timed steps are not the whole launch's (gpu/probes/README.md, "The forty-fourth
// batch's walks read again"): `untimed` sets how many steps come before them (0: the timed steps
// start with the launch), and every SERIES_STEPS timed steps the walk notes the globaltimer, its
// SM's clock and the stream's bytes so far (the stream's warps add theirs at each look at the flag),
// so that a launch's series says when its walk's wait changes, and with what clock and stream rate.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o hitsUnderLoad hitsUnderLoad.cu
// Run:   ./hitsUnderLoad <walk KiB> <stream MiB, 0 for none> [steps 8192] [walk SM 0] [blocks per SM 8] [alone|shared]
//                        [untimed steps: min(lines, 32768)]
// Prints one JSON line: the walk's footprint, untimed and timed steps, its step's cycles (mean,
// percentiles 10, 50, 90, 99 and the largest), the stream's footprint, how many stream blocks had
// started when the timed steps began (of how many), the stream's bytes and GB/s over the launch, and
// the series: [ns, SM cycles, stream bytes] at the end of each SERIES_STEPS timed steps, from their start.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>
#include <cuda_runtime.h>
#include "cudaCheck.cuh"
#include "cycleClock.cuh"
#include "eventTimer.cuh"
#include "smIdentity.cuh"

constexpr int MAX_STEPS = 65536, THREADS = 256, IN_FLIGHT = 4, CHECK_EVERY = 64;
// A stream warp's bytes in one round: IN_FLIGHT 16-byte loads a lane.
constexpr unsigned long long ROUND_BYTES = IN_FLIGHT * 32 * 16;
// The walk's lines and the flag words each get pages of their own: the first build put the flag
// that every stream warp polls beside a small walk's lines, whose walks of 1–16 KiB read slow beside
// a stream (results/2026-12-08). Apart they read slow still (results/2026-12-08b): not the flag.
constexpr size_t PAGE_BYTES = size_t(2) << 20;
// The steps' histogram: bins of BIN_CYCLES cycles, the last also taking everything past it; in
// shared memory, small enough that eight blocks still fit an SM.
constexpr int BIN_CYCLES = 4, BINS = 1024;
// The walk's untimed warm-up walks at most this many lines (a walk past the L2 needs none).
constexpr unsigned MAX_WARM_LINES = 32768;
// The series: a note every SERIES_STEPS timed steps, and one at their start.
constexpr int SERIES_STEPS = 1024, MAX_NOTES = MAX_STEPS / SERIES_STEPS + 1;
// A stream thread stops after this many checks of the flag even if the walk never sets it (≈ 1 s
// on the H200), so that a walk block that could not start ends the launch instead of hanging it.
constexpr unsigned MAX_CHECKS = 20000;

__device__ __forceinline__ unsigned loadLine(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__device__ __forceinline__ uint4 loadChunk(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// The launch's words in global memory (zeroed before each launch but `bins`, which the walk writes whole).
struct Words {
  unsigned* claim;    // the walk's block: the first on the walk's SM
  unsigned* started;  // stream blocks that have started
  unsigned* done;     // set when the timed steps are over
  unsigned* capped;   // stream warps that stopped at MAX_CHECKS
  unsigned long long* streamedBytes;  // the stream's, added by each warp at each look at the flag
  unsigned long long* walk;  // [stream blocks started when the timed steps began, sum of their cycles]
  unsigned long long* series;  // MAX_NOTES × [globaltimer ns, clock64, streamedBytes]
  unsigned* bins;     // BINS
  unsigned* sink;
};

// The walk: the cyclic order of `next` (next[line × 32] is the line after `line`) from `start`,
// `untimed` steps, then `steps` timed ones; the stream: `elems` 16-byte
// chunks read in the rotating grid-stride walk by the blocks on the other SMs, numbered by arrival,
// until `done` is set.
__global__ void __launch_bounds__(THREADS, 8)
    hitsUnder(const unsigned* next, unsigned untimed, unsigned start, int steps, unsigned walkSm, const uint4* stream,
              size_t elems, unsigned streamBlocks, bool walkSmStreams, Words words) {
  constexpr unsigned WALKER = ~1u, LEAVE = ~0u;
  __shared__ unsigned slot;
  __shared__ unsigned bins[BINS];
  // A load's value lands here before the clock is read: an asm input alone does not make the
  // clock wait for the load (dramClock.cu's first build timed the issue).
  __shared__ unsigned landingSlot;
  volatile unsigned* landing = &landingSlot;
  const bool onWalkSm = smId() == walkSm;
  if (threadIdx.x == 0) {
    // The walk takes the first block on its SM; the others there leave, or stream with `walkSmStreams`.
    if (onWalkSm && atomicCAS(words.claim, 0u, 1u) == 0u) slot = WALKER;
    else slot = !onWalkSm || walkSmStreams ? atomicAdd(words.started, 1u) : LEAVE;
  }
  __syncthreads();
  if (slot == WALKER) {
    if (threadIdx.x != 0) return;
    for (int b = 0; b < BINS; b++) bins[b] = 0;
    unsigned at = start;
    for (unsigned i = 0; i < untimed; i++) at = loadLine(next + size_t(at) * 32);
    const unsigned startedBlocks = atomicAdd(words.started, 0u);
    // A note's stores wait for its load of the stream's count, and the next step's clock for them.
    const auto note = [&](int k) {
      words.series[3 * k] = globalNsNow();
      words.series[3 * k + 1] = clockNow();
      words.series[3 * k + 2] = *(volatile unsigned long long*)words.streamedBytes;
    };
    note(0);
    unsigned long long sum = 0;
    for (int i = 0; i < steps; i++) {
      const long long t0 = clockNow();
      at = loadLine(next + size_t(at) * 32);
      *landing = at;
      const unsigned cycles = unsigned(clockNow() - t0);
      sum += cycles;
      bins[min(cycles / BIN_CYCLES, unsigned(BINS - 1))]++;
      if ((i + 1) % SERIES_STEPS == 0) note((i + 1) / SERIES_STEPS);
    }
    atomicExch(words.done, 1u);
    for (int b = 0; b < BINS; b++) words.bins[b] = bins[b];
    words.walk[0] = startedBlocks;
    words.walk[1] = sum;
    words.sink[0] = at;
    return;
  }
  if (elems == 0 || slot >= streamBlocks) return;
  const size_t grid = size_t(streamBlocks) * THREADS;
  const unsigned lane = threadIdx.x % 32;
  unsigned acc = 0, round = 0, checks = 0;
  for (size_t i = size_t(slot) * THREADS + threadIdx.x;; i += IN_FLIGHT * grid) {
    uint4 v[IN_FLIGHT];
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; j++) v[j] = loadChunk(stream + (i + j * grid) % elems);
#pragma unroll
    for (int j = 0; j < IN_FLIGHT; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    if (++round < CHECK_EVERY) continue;
    round = 0;
    if (lane == 0) atomicAdd(words.streamedBytes, CHECK_EVERY * ROUND_BYTES);
    // One lane asks, once in CHECK_EVERY steps, so the flag's line is no hot spot.
    unsigned flag = 0;
    if (lane == 0) flag = *(volatile unsigned*)words.done;
    if (__shfl_sync(0xffffffffu, flag, 0) != 0u) break;
    if (++checks == MAX_CHECKS) {
      if (lane == 0) atomicAdd(words.capped, 1u);
      break;
    }
  }
  if (acc == 0x9e3779b9u) words.sink[1] = acc;  // never true for the zeroed buffer; keeps the loads
  if (lane == 0 && round > 0) atomicAdd(words.streamedBytes, round * ROUND_BYTES);
}

// The smallest cycle count whose bin reaches share `p` of the steps (a bin's lower edge).
static double percentile(const std::vector<unsigned>& bins, int steps, double p) {
  unsigned long long seen = 0;
  for (int b = 0; b < BINS; b++) {
    seen += bins[b];
    if (double(seen) >= p * steps) return double(b) * BIN_CYCLES;
  }
  return double(BINS - 1) * BIN_CYCLES;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr,
            "usage: %s <walk KiB> <stream MiB, 0 for none> [steps 8192] [walk SM 0] [blocks per SM 8] [alone|shared] "
            "[untimed steps]\n",
            argv[0]);
    return 2;
  }
  const size_t walkKiB = strtoull(argv[1], nullptr, 10), streamMiB = strtoull(argv[2], nullptr, 10);
  const int steps = argc > 3 ? atoi(argv[3]) : 8192;
  const unsigned walkSm = argc > 4 ? unsigned(atoi(argv[4])) : 0u;
  const int blocksPerSm = argc > 5 ? atoi(argv[5]) : 8;
  const bool walkSmStreams = argc > 6 && strcmp(argv[6], "shared") == 0;
  const int sms = smCount();
  const size_t lines = (walkKiB << 10) / 128;
  const long long untimed = argc > 7 ? atoll(argv[7]) : (long long)std::min(lines, size_t(MAX_WARM_LINES));
  if (lines < 2 || steps < 1 || steps > MAX_STEPS || walkSm >= unsigned(sms) || blocksPerSm < 1 || blocksPerSm > 8 ||
      untimed < 0 || untimed > MAX_WARM_LINES) {
    fprintf(stderr,
            "hitsUnderLoad: give a walk of 1 KiB or more, 1 … %d steps, an SM below %d, 1 … 8 blocks, 0 … %u untimed "
            "steps\n",
            MAX_STEPS, sms, MAX_WARM_LINES);
    return 2;
  }
  std::vector<unsigned> order(lines), next(lines * 32, 0);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 random(1);
  std::shuffle(order.begin(), order.end(), random);
  for (size_t i = 0; i < lines; i++) next[size_t(order[i]) * 32] = order[(i + 1) % lines];

  unsigned *deviceNext, *flags;
  unsigned long long* counts;
  uint4* stream = nullptr;
  const size_t elems = (streamMiB << 20) / sizeof(uint4);
  const auto pages = [](size_t bytes) { return (bytes + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES; };
  CHECK(cudaMalloc(&deviceNext, pages(next.size() * sizeof(unsigned))));
  CHECK(cudaMemcpy(deviceNext, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&flags, pages((4 + BINS + 2) * sizeof(unsigned))));
  CHECK(cudaMalloc(&counts, pages((3 + 3 * MAX_NOTES) * sizeof(unsigned long long))));
  if (elems > 0) {
    CHECK(cudaMalloc(&stream, elems * sizeof(uint4)));
    CHECK(cudaMemset(stream, 0, elems * sizeof(uint4)));
  }
  const Words words{flags, flags + 1, flags + 2, flags + 3, counts, counts + 1, counts + 3, flags + 4, flags + 4 + BINS};
  // Blocks on the walk's SM other than the walk's leave at once (or stream, `shared`); the stream's are the rest.
  const unsigned streamBlocks = unsigned((sms - 1) * blocksPerSm + (walkSmStreams ? blocksPerSm - 1 : 0));
  const auto launch = [&](unsigned from) {
    CHECK(cudaMemset(flags, 0, 4 * sizeof(unsigned)));
    CHECK(cudaMemset(counts, 0, 3 * sizeof(unsigned long long)));
    return timedMs([&] {
      hitsUnder<<<sms * blocksPerSm, THREADS>>>(deviceNext, unsigned(untimed), from, steps, walkSm, stream, elems,
                                                streamBlocks, walkSmStreams, words);
    });
  };
  // Untimed: loads the module and brings the walk's lines into the L2. The timed launch goes on
  // from the line where it stopped, so that a walk larger than both launches' steps reads lines
  // neither read before (the first build started both at the same line: its 1 GiB walk was 5 MiB).
  launch(order[0]);
  unsigned from = 0;
  CHECK(cudaMemcpy(&from, words.sink, sizeof(unsigned), cudaMemcpyDeviceToHost));
  const double ms = launch(from);
  std::vector<unsigned> bins(BINS), ends(4);
  unsigned long long host[3];
  const int notes = steps / SERIES_STEPS + 1;
  std::vector<unsigned long long> series(3 * notes);
  CHECK(cudaMemcpy(bins.data(), words.bins, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(series.data(), words.series, series.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ends.data(), flags, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host, counts, sizeof(host), cudaMemcpyDeviceToHost));
  int largest = BINS - 1;
  while (largest > 0 && bins[largest] == 0) largest--;
  printf("{\"probe\":\"hitsUnderLoad\",\"walkBytes\":%zu,\"untimed\":%lld,\"steps\":%d,\"walkSm\":%u,\"walkSmStreams\":%s,\"meanCycles\":%.1f,"
         "\"p10\":%.0f,\"p50\":%.0f,\"p90\":%.0f,\"p99\":%.0f,\"largestBin\":%d,\"past%d\":%u,"
         "\"streamBytes\":%zu,\"streamBlocks\":%u,\"startedBlocks\":%llu,\"cappedWarps\":%u,"
         "\"streamedBytes\":%llu,\"ms\":%.4f,\"streamGBps\":%.1f,\"series\":[",
         walkKiB << 10, untimed, steps, walkSm, walkSmStreams ? "true" : "false", double(host[2]) / steps, percentile(bins, steps, 0.1),
         percentile(bins, steps, 0.5), percentile(bins, steps, 0.9), percentile(bins, steps, 0.99),
         largest * BIN_CYCLES, (BINS - 1) * BIN_CYCLES, bins[BINS - 1], elems * sizeof(uint4),
         elems > 0 ? streamBlocks : 0u, host[1], ends[3], host[0], ms, double(host[0]) / ms / 1e6);
  for (int k = 1; k < notes; k++)
    printf("%s[%llu,%llu,%llu]", k > 1 ? "," : "", series[3 * k] - series[0], series[3 * k + 1] - series[1],
           series[3 * k + 2] - series[2]);
  printf("]}\n");
  CHECK(cudaFree(deviceNext));
  CHECK(cudaFree(flags));
  CHECK(cudaFree(counts));
  if (stream != nullptr) CHECK(cudaFree(stream));
  return 0;
}
