// Which lines of a dependent walk the L2 keeps from one pass to the next, line by line.
//
// The chase rows (l2Partitions chase) say how the mean latency of one thread's walk over a cyclic
// random permutation rises from the near partition's ≈ 290 cycles to the far one's ≈ 530 between
// 27 and 36 MiB. A mean cannot say how: a least-recently-used copy of C bytes keeps all of a cyclic
// walk below C and none of it above, so a gradual rise means either sets that overflow before
// others (then the same lines miss in every pass) or a replacement that picks its victim at random
// (then which lines miss changes from pass to pass). This probe times every load of several passes
// and keeps, per pass and per position of the walk, one bit: whether that load took longer than
// a threshold. Comparing two passes' bits tells the two apart.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o l2Replacement l2Replacement.cu
// Run:   ./l2Replacement <footprint KiB> [threshold cycles 400] [passes 3] [seed 1]
// Prints one JSON line: per recorded pass the latency histogram (32-cycle bins) and the share of
// loads above the threshold; per pair of consecutive passes how many loads were above it in both.
// The bits live in shared memory (no global traffic besides the walk itself), so the footprint
// is limited to what fits: passes × footprint / 1 KiB bytes ≤ 227 KiB.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include "cudaCheck.cuh"
#include "cycleClock.cuh"

constexpr int BINS = 64;  // 32 cycles each: 0 … 2047 cycles, the last bin also takes the rest
constexpr int BIN_CYCLES = 32;

// One thread: a warm pass, then `passes` timed passes. Each load's value is stored to shared
// memory before the clock is read again, so the second clock read waits for the load.
__global__ void walk(const unsigned* next, unsigned lines, unsigned start, int passes, int threshold,
                     unsigned* histogramOut, unsigned* bitsOut, unsigned* sink) {
  extern __shared__ unsigned shared[];
  const unsigned words = (lines + 31) / 32;
  unsigned* bits = shared;                         // passes × words
  unsigned* histogram = shared + passes * words;   // passes × BINS
  volatile unsigned* landing = histogram + passes * BINS;
  for (unsigned i = 0; i < passes * words; i++) bits[i] = 0;
  for (int i = 0; i < passes * BINS; i++) histogram[i] = 0;
  unsigned at = start;
  for (unsigned i = 0; i < lines; i++) at = next[at * 32];
  for (int pass = 0; pass < passes; pass++) {
    for (unsigned i = 0; i < lines; i++) {
      const long long t0 = clockNow();
      at = next[at * 32];
      *landing = at;
      const long long cycles = clockNow() - t0;
      histogram[pass * BINS + min(int(cycles / BIN_CYCLES), BINS - 1)]++;
      if (cycles > threshold) bits[pass * words + i / 32] |= 1u << (i % 32);
    }
  }
  for (unsigned i = 0; i < passes * words; i++) bitsOut[i] = bits[i];
  for (int i = 0; i < passes * BINS; i++) histogramOut[i] = histogram[i];
  sink[0] = at;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: l2Replacement <footprint KiB> [threshold cycles] [passes] [seed]\n");
    return 2;
  }
  const size_t footprintKiB = strtoull(argv[1], nullptr, 10);
  const int threshold = argc > 2 ? atoi(argv[2]) : 400;
  const int passes = argc > 3 ? atoi(argv[3]) : 3;
  const unsigned seed = argc > 4 ? unsigned(atoi(argv[4])) : 1;
  const unsigned lines = unsigned((footprintKiB << 10) / 128);
  const unsigned words = (lines + 31) / 32;
  const size_t sharedBytes = (size_t(passes) * words + size_t(passes) * BINS + 1) * sizeof(unsigned);
  if (sharedBytes > 227 * 1024) {
    fprintf(stderr, "l2Replacement: %d passes of %zu KiB need %zu bytes of shared memory (227 KiB at most)\n",
            passes, footprintKiB, sharedBytes);
    return 2;
  }
  std::vector<unsigned> order(lines), next(size_t(lines) * 32, 0);
  for (unsigned i = 0; i < lines; i++) order[i] = i;
  std::mt19937 random(seed);
  std::shuffle(order.begin(), order.end(), random);
  for (unsigned i = 0; i < lines; i++) next[size_t(order[i]) * 32] = order[(i + 1) % lines];
  unsigned *deviceNext, *histogram, *bits, *sink;
  CHECK(cudaMalloc(&deviceNext, next.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&histogram, passes * BINS * sizeof(unsigned)));
  CHECK(cudaMalloc(&bits, size_t(passes) * words * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemcpy(deviceNext, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetAttribute(walk, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sharedBytes)));
  // The walk starts at order[0]: the warm pass ends where it began, so position i of every timed
  // pass is the load of line order[i + 1 mod lines].
  walk<<<1, 1, sharedBytes>>>(deviceNext, lines, order[0], passes, threshold, histogram, bits, sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::vector<unsigned> hostHistogram(passes * BINS), hostBits(size_t(passes) * words);
  CHECK(cudaMemcpy(hostHistogram.data(), histogram, hostHistogram.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostBits.data(), bits, hostBits.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  printf("{\"probe\":\"l2Replacement\",\"footprintBytes\":%zu,\"lines\":%u,\"threshold\":%d,\"seed\":%u,\"binCycles\":%d,"
         "\"passes\":[",
         footprintKiB << 10, lines, threshold, seed, BIN_CYCLES);
  for (int pass = 0; pass < passes; pass++) {
    size_t above = 0;
    for (unsigned w = 0; w < words; w++) above += __builtin_popcount(hostBits[pass * words + w]);
    printf("%s{\"above\":%zu,\"histogram\":[", pass ? "," : "", above);
    for (int b = 0; b < BINS; b++) printf("%s%u", b ? "," : "", hostHistogram[pass * BINS + b]);
    printf("]}");
  }
  printf("],\"pairs\":[");
  for (int pass = 0; pass + 1 < passes; pass++) {
    size_t both = 0;
    for (unsigned w = 0; w < words; w++)
      both += __builtin_popcount(hostBits[pass * words + w] & hostBits[(pass + 1) * words + w]);
    printf("%s{\"passes\":[%d,%d],\"aboveInBoth\":%zu}", pass ? "," : "", pass, pass + 1, both);
  }
  printf("]}\n");
  CHECK(cudaFree(deviceNext));
  CHECK(cudaFree(histogram));
  CHECK(cudaFree(bits));
  CHECK(cudaFree(sink));
  return 0;
}
