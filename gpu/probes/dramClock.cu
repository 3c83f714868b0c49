// When DRAM's slow reads come (docs/system-model.md, "DRAM's tail"). About one DRAM read in eight
// waits up to ≈ 520 cycles longer than the rest, spread evenly over that range. If that is refresh,
// the slow reads come in windows that recur at the refresh interval, a read's wait is what is left
// of its window when it arrives, and which reads a window holds depends on the unit it refreshes (a
// bank, a channel, a stack). A latency histogram cannot say which. This probe keeps the times: one
// thread on one SM reads lines one at a time, each line once, and records for every read when it
// was issued (clock64 since the first read's issue) and how long it took.
//
// Order: the footprint's 2 MiB pages in turn (one TLB miss per 16,384 reads), and within a page its
// lines scattered (read j of a page takes line j × M mod 16,384, M odd, 6,781 unless given: each
// line once), so that successive reads land on other banks as a random walk's do; or `sequential`,
// line after line. `warm` reads the footprint once untimed first: an L2-resident footprint then gives
// the trace of reads that never reach DRAM. Before the trace the footprint is written, then 256 MiB
// elsewhere is written and read: the L2 keeps none of the footprint and no dirty line. (The first
// batch only wrote those 256 MiB: its L2-resident round then met their write-backs, 0.9 % of its
// reads up to 1,472 cycles.)
//
// With T threads (T > 1) there are T blocks of one thread, each on its own SM as the scheduler
// places them, each reading its own T-th of the footprint at the same time: do two SMs' reads of
// lines far apart wait at the same moments? Their issue times are then the globaltimer's (one clock
// for every SM), not the SM's cycles.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o dramClock dramClock.cu
// Run:   ./dramClock <footprint MiB> <reads> <scattered|sequential> <cold|warm> <trace file> [M 6781] [T 1] [S 0]
// Prints one JSON line: the SM, the trace's length in SM cycles and in globaltimer nanoseconds (the
// SM's clock over the trace), and the trace file's name (with T threads: a list of each). The trace
// holds one little-endian uint32 pair per read: its issue cycle since the first read's (with T
// threads: the globaltimer's low 32 bits in ns), and its latency in cycles; T threads' traces follow
// one another. With S, thread b starts its order at position b × S, so that at any moment the
// threads read other offsets of their shares (with 0 they all read the same offset at once).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "cudaCheck.cuh"
#include "cycleClock.cuh"

constexpr unsigned LINE_BYTES = 128, PAGE_LINES = (2u << 20) / LINE_BYTES;

// The line of the footprint that the read at `position` takes (positions wrap at the footprint).
// `scatter` 0 reads the lines in order.
__device__ __forceinline__ size_t lineAt(size_t position, size_t lines, unsigned scatter) {
  const size_t at = position % lines;
  if (scatter == 0) return at;
  const size_t page = at / PAGE_LINES, j = at % PAGE_LINES;
  return page * PAGE_LINES + (j * scatter) % PAGE_LINES;
}

// Every block reads its share of `words`: the L2 then holds these clean lines in place of the dirty
// ones the writes before left.
__global__ void readAll(const unsigned* buf, size_t words, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    acc ^= __ldcg(buf + i);
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// clocks: first issue and last return in SM cycles, then the same two in globaltimer nanoseconds.
// The SM's id goes to clocks[4]. A read's value is stored to shared memory before the clock is read
// again (as l2Replacement's walk does), so the latency ends when the value is in its register and
// the next read cannot issue before. An asm input alone does not wait: the first build read the
// clock right after each load's issue, since nothing in the clock's read uses the register.
// GLOBAL_ISSUE: block b reads lines [b, b + 1) × `lines` of the buffer from position b × stagger of
// its order, traces into trace + b × reads and clocks + 5 b, and records each read's issue time from
// the globaltimer.
template <bool GLOBAL_ISSUE>
__global__ void readClocked(const unsigned* buf, size_t lines, unsigned reads, unsigned scatter, unsigned stagger,
                            bool warm, uint2* trace, unsigned long long* clocks, unsigned* sink) {
  const size_t first = GLOBAL_ISSUE ? size_t(blockIdx.x) * stagger : 0;
  if (GLOBAL_ISSUE) {
    buf += blockIdx.x * lines * (LINE_BYTES / sizeof(unsigned));
    trace += size_t(blockIdx.x) * reads;
    clocks += 5 * blockIdx.x;
  }
  __shared__ unsigned landingSlot;
  volatile unsigned* landing = &landingSlot;
  const unsigned wordsPerLine = LINE_BYTES / sizeof(unsigned);
  unsigned acc = 0;
  if (warm)
    for (size_t i = 0; i < lines; i++) acc ^= __ldcg(buf + lineAt(i, lines, scatter) * wordsPerLine);
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  const unsigned long long startNanoseconds = globalNsNow();
  const long long start = clockNow();
  long long end = start;
  for (unsigned i = 0; i < reads; i++) {
    const unsigned long long issuedNanoseconds = GLOBAL_ISSUE ? globalNsNow() : 0;
    const long long issued = clockNow();
    const unsigned value = __ldcg(buf + lineAt(first + i, lines, scatter) * wordsPerLine);
    *landing = value;
    end = clockNow();
    acc ^= value;
    trace[i] = make_uint2(GLOBAL_ISSUE ? unsigned(issuedNanoseconds) : unsigned(issued - start), unsigned(end - issued));
  }
  const unsigned long long endNanoseconds = globalNsNow();
  clocks[0] = start;
  clocks[1] = end;
  clocks[2] = startNanoseconds;
  clocks[3] = endNanoseconds;
  clocks[4] = smid;
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

int main(int argc, char** argv) {
  const bool scattered = argc > 3 && strcmp(argv[3], "scattered") == 0;
  const bool warm = argc > 4 && strcmp(argv[4], "warm") == 0;
  if (argc < 6 || argc > 9 || (!scattered && strcmp(argv[3], "sequential") != 0) ||
      (!warm && strcmp(argv[4], "cold") != 0)) {
    fprintf(stderr, "usage: dramClock <footprint MiB> <reads> <scattered|sequential> <cold|warm> <trace file> [M] [T] [S]\n");
    return 2;
  }
  const unsigned scatter = scattered ? unsigned(argc > 6 ? strtoul(argv[6], nullptr, 10) : 6781) : 0;
  const unsigned threads = argc > 7 ? unsigned(strtoul(argv[7], nullptr, 10)) : 1;
  const unsigned stagger = argc > 8 ? unsigned(strtoul(argv[8], nullptr, 10)) : 0;
  const size_t footprintBytes = strtoull(argv[1], nullptr, 10) << 20;
  const unsigned reads = unsigned(strtoul(argv[2], nullptr, 10));
  const size_t lines = footprintBytes / LINE_BYTES;
  if (threads == 0 || lines % (size_t(threads) * PAGE_LINES) != 0 || lines == 0 || reads == 0 ||
      (scattered && scatter % 2 == 0)) {
    fprintf(stderr,
            "dramClock: each thread's share of the footprint must be a whole number of 2 MiB pages, the reads at least "
            "one, M odd\n");
    return 2;
  }
  const size_t flushBytes = size_t(256) << 20;
  unsigned *buf, *sink;
  unsigned char* flush;
  uint2* trace;
  unsigned long long* clocks;
  CHECK(cudaMalloc(&buf, footprintBytes));
  CHECK(cudaMalloc(&flush, flushBytes));
  CHECK(cudaMalloc(&trace, size_t(reads) * threads * sizeof(uint2)));
  CHECK(cudaMalloc(&clocks, 5 * threads * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemset(buf, 1, footprintBytes));
  CHECK(cudaMemset(flush, 2, flushBytes));
  readAll<<<1024, 256>>>(reinterpret_cast<const unsigned*>(flush), flushBytes / sizeof(unsigned), sink);
  CHECK(cudaDeviceSynchronize());
  if (threads == 1)
    readClocked<false><<<1, 1>>>(buf, lines, reads, scatter, 0, warm, trace, clocks, sink);
  else
    readClocked<true><<<threads, 1>>>(buf, lines / threads, reads, scatter, stagger, warm, trace, clocks, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<uint2> hostTrace(size_t(reads) * threads);
  std::vector<unsigned long long> hostClocks(5 * threads);
  CHECK(cudaMemcpy(hostTrace.data(), trace, hostTrace.size() * sizeof(uint2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostClocks.data(), clocks, hostClocks.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  FILE* file = fopen(argv[5], "wb");
  if (!file || fwrite(hostTrace.data(), sizeof(uint2), hostTrace.size(), file) != hostTrace.size() || fclose(file) != 0) {
    fprintf(stderr, "dramClock: %s: cannot write the trace\n", argv[5]);
    return 1;
  }
  const std::string path = argv[5];
  // Each thread's SM, cycles and nanoseconds: a number for one thread (the first batches' records),
  // a list for several.
  std::string sms, cycles, nanoseconds;
  for (unsigned t = 0; t < threads; t++) {
    const unsigned long long* c = &hostClocks[5 * t];
    const char* comma = t ? "," : "";
    sms += comma + std::to_string(c[4]);
    cycles += comma + std::to_string((long long)(c[1] - c[0]));
    nanoseconds += comma + std::to_string(c[3] - c[2]);
  }
  const char* open = threads > 1 ? "[" : "";
  const char* close = threads > 1 ? "]" : "";
  printf("{\"probe\":\"dramClock\",\"footprintBytes\":%zu,\"reads\":%u,\"order\":\"%s\",\"scatter\":%u,\"start\":\"%s\","
         "%s\"sm\":%s%s%s,\"cycles\":%s%s%s,\"nanoseconds\":%s%s%s,\"trace\":\"%s\"}\n",
         footprintBytes, reads, argv[3], scatter, argv[4],
         threads > 1 ? ("\"threads\":" + std::to_string(threads) + ",\"stagger\":" + std::to_string(stagger) +
                            ",\"issue\":\"globaltimer\",")
                               .c_str()
                         : "", open,
         sms.c_str(), close, open, cycles.c_str(), close, open, nanoseconds.c_str(), close,
         path.substr(path.find_last_of('/') + 1).c_str());
  CHECK(cudaFree(buf));
  CHECK(cudaFree(flush));
  CHECK(cudaFree(trace));
  CHECK(cudaFree(clocks));
  CHECK(cudaFree(sink));
  return 0;
}
