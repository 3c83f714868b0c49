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
// Two more modes ask which SMs share a partition and what the stream keeps when only some SMs read:
//   smmap     per SM, a fresh buffer walked twice by SM 0 and then once by that SM: an SM of SM 0's
//             partition finds SM 0's copies near, an SM of the other partition does not;
//   streamsms the fixed stream read only by the blocks on the listed SMs (the others leave at once);
//             given a CSV path, each warp's SM, start and end in the last launch.
//   smstream  the same by a given number of blocks, threads and loads in flight per listed SM, in
//             streamFixed's loop: how many sectors one SM keeps in flight, and its own ceiling.
//   smdepth   smstream's stream with whole steps only, so that a warp issues all its loads before it
//             uses one, 1 … 16 out: a warp's round trip by the loads it keeps out.
//   smconst   smdepth's loop with the buffer's address loaded from constant memory before each load
//             (an LDC, as the bounds-tested loops of smstream and streamsms reload their pointer
//             parameter before each LDG): what those LDCs cost a warp's round trip.
//   smsteps   smdepth's loop with each warp's steps timed (clock64 from the first load's issue until
//             every lane has the last value): a histogram of the steps by cycles, and its percentiles.
//   streamkeep which lines the listed SMs' stream keeps: in each round, launches of the fixed stream,
//             then one thread on the probe SM reads every line once in address order and times each
//             (a 4-bit class per line: near hit, far hit, DRAM); after the rounds the buffer is
//             written again and read so once more (on the H200 the rewrite's stores leave copies
//             in the storing SMs' partition as reads do, so this walk is no map of home partitions).
//             With an order other than `fixed` the warps' chunks are dealt by their lines' home
//             partitions, mapped first: every warp's the same as fixed's (`natural`), each warp's
//             homed in one partition (`split`), or half in each (`halves`); or only the lines
//             homed in one partition are read (`near`, `far`). With `steps`, the last launch's
//             warps also count their steps by cycles (PREFIX-steps.csv).
//   gpcmap    which SMs share a GPC: thread block clusters, whose blocks run in one GPC, of 2 to 16
//             blocks, one block per SM; each launch prints the SM of every block in cluster order.
//   rotsteps  the rotating stream in whole steps with each warp's steps counted by cycles, and its
//             start, end and SM: which warps find their lines in the L2 past its size.
//   rotpart   the rotating stream with the warps ordered by L2 partition, in runs of R warps taking
//             turns (default 1): a line's next reader, (elements mod grid) / 32 warps on, is in the
//             same partition when that count is even and in the other when it is odd (R = 1), so
//             footprints 512 B apart ask whether silicon's next reader gains from the copy its own
//             partition made of a far line; longer runs put a share of the next readers in each
//             (R = 4: 100, 75, 50 and 0 % in the same partition at F and 512, 1,024 and 2,048 B more).
//   rothome   the rotating stream with each L2 partition's warps reading only the 4 KiB blocks homed
//             in it (mapped first, 40 MiB at a time): no line crosses the fabric, so no partition
//             holds a copy; `far` gives each partition the other's blocks (every read crosses the
//             fabric); `oneway` gives the listed partition's warps the other's blocks and the
//             other's warps nothing (one partition holds only copies, the other only its home
//             lines fetched for them); `mixed` reads every block with every warp through the same
//             block list.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o l2Partitions l2Partitions.cu
// Run:   ./l2Partitions stream <footprint MiB, fractions in 512 B> <fixed|rotating|relaunch> [total MiB 2048]
//                       [blocks per SM 8] [threads 256] [loads in flight 4] [cg|ca]
//        ./l2Partitions chase <footprint KiB> [loads 20000]
//        ./l2Partitions blockmap [blocks per SM 8] [threads 256]
//        ./l2Partitions rotpart <footprint MiB, fractions in 512 B> <total MiB> <SM list of one partition>
//                               [warps a run, a power of two: 1]
//        ./l2Partitions rothome <footprint MiB, whole 4 KiB blocks> <total MiB> <SM list of one partition> [home|far|oneway|mixed]
//        ./l2Partitions gather <blocks> [threads 128]
//        ./l2Partitions smmap [footprint KiB 4096]
//        ./l2Partitions streamsms <footprint MiB> <SM list, e.g. 0,2,4> [total MiB 2048] [warps CSV]
//        ./l2Partitions smstream <footprint MiB> <SM list> <blocks per SM> <threads> <loads in flight 1|2|4|8>
//                                [total MiB 2048]
//        ./l2Partitions smdepth <footprint MiB> <SM list> <blocks per SM> <threads> <loads in flight 1|2|4|8|12|16>
//                               [total MiB 2048] [spacing of a warp's loads, B: the grid's threads × 16]
//        ./l2Partitions smsteps <footprint MiB> <SM list> <blocks per SM> <threads> <loads in flight 1|2|4|8>
//                               [total MiB 2048] [spacing B]
//        ./l2Partitions smconst <footprint MiB> <SM list> <blocks per SM> <threads> <loads in flight 1|2|4|8>
//                               [total MiB 2048] [spacing B]
//        ./l2Partitions streamkeep <footprint MiB> <SM list> <passes per launch> <launches> <probe SM>
//                                  <file prefix> [rounds 3] [order fixed|natural|split|halves|near|far]
//                                  [steps]
//        ./l2Partitions gpcmap
// Each run prints one JSON line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <random>
#include <string>
#include <cuda_runtime.h>
#include "cycleClock.cuh"
#include "eventTimer.cuh"
#include "smIdentity.cuh"

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

// `passes` passes over the footprint with the same thread-to-line mapping every pass: thread
// `tid` of `grid` reads elements tid, tid + grid, …, IN_FLIGHT independent 16-byte loads at a time
// (the harness keeps 4); returns the XOR of everything it read. With `passEnds`, the thread writes
// when each pass's last value was in.
template <int IN_FLIGHT, LoadKind KIND>
__device__ unsigned readPasses(const uint4* buf, size_t elems, int passes, size_t tid, size_t grid,
                               unsigned long long* passEnds = nullptr) {
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
    if (passEnds != nullptr) passEnds[pass] = globalNsAfter(acc);
  }
  return acc;
}

// The fixed mapping over the whole grid.
template <int IN_FLIGHT, LoadKind KIND>
__global__ void streamFixed(const uint4* buf, size_t elems, int passes, unsigned* sink) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const unsigned acc =
      readPasses<IN_FLIGHT, KIND>(buf, elems, passes, size_t(blockIdx.x) * blockDim.x + threadIdx.x, grid);
  if (acc == 0x9e3779b9u) sink[0] = acc;  // never true for the zeroed buffer; keeps the loads
}

// Thread `tid`'s part of one grid-stride walk over `total` elements, each read at index mod footprint.
template <int IN_FLIGHT, LoadKind KIND>
__device__ __forceinline__ unsigned rotatingWalk(const uint4* buf, size_t elems, size_t total, size_t tid,
                                                 size_t grid) {
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
  return acc;
}

// One grid-stride walk over `total` elements, each read at index mod footprint.
template <int IN_FLIGHT, LoadKind KIND>
__global__ void streamRotating(const uint4* buf, size_t elems, size_t total, unsigned* sink) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const unsigned acc =
      rotatingWalk<IN_FLIGHT, KIND>(buf, elems, total, size_t(blockIdx.x) * blockDim.x + threadIdx.x, grid);
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

// The chase of `chase` by the first block that lands on SM `target` (the grid has several blocks
// per SM, so every SM gets one); `passes` timed walks over the whole permutation, one each.
__global__ void chaseOnSm(const unsigned* next, unsigned lines, int passes, unsigned target, unsigned start,
                          unsigned* claim, long long* cycles, unsigned* sink) {
  if (threadIdx.x != 0 || smId() != target || atomicCAS(claim, 0u, 1u) != 0u) return;
  unsigned at = start;
  for (int pass = 0; pass < passes; pass++) {
    const long long t0 = clock64();
    for (unsigned i = 0; i < lines; i++) at = next[at * 32];
    cycles[pass] = clock64() - t0;
  }
  sink[0] = at;
}

// The block's slot among the blocks on the listed SMs (a ticket, in the order they arrive); `active`
// for a block on another SM. Blocks at `active` or past it leave at once.
__device__ unsigned listedSlot(const unsigned char* use, unsigned active, unsigned* ticket) {
  __shared__ unsigned slot;
  if (!use[smId()]) return active;
  if (threadIdx.x == 0) slot = atomicAdd(ticket, 1u);
  __syncthreads();
  return slot;
}

// The fixed mapping, 4 loads in flight, over the blocks that land on SMs with use[sm] set, numbered by arrival: the
// grid is resident at once (8 blocks of 256 threads per SM), so `active` is 8 × the listed SMs
// and each block keeps its lines for every pass. `ticket` counts the blocks that took part.
// With `warpNs`, each warp's first lane also writes when the warp started and when its last load's value was in
// (%globaltimer, ns) and its SM: [start, end, SM] per warp, by slot and warp; with `passNs`, when
// each of its passes ended: `passes` values per warp.

__global__ void streamOnSms(const uint4* buf, size_t elems, int passes, const unsigned char* use, unsigned active,
                            unsigned* ticket, unsigned* sink, unsigned long long* warpNs,
                            unsigned long long* passNs) {
  const unsigned slot = listedSlot(use, active, ticket);
  if (slot >= active) return;
  const size_t grid = size_t(active) * blockDim.x;
  const size_t warp = size_t(slot) * (blockDim.x / 32) + threadIdx.x / 32;
  const unsigned long long start = globalNsAfter(0);
  const unsigned acc =
      readPasses<4, LoadKind::cg>(buf, elems, passes, size_t(slot) * blockDim.x + threadIdx.x, grid,
                                  passNs != nullptr && threadIdx.x % 32 == 0 ? passNs + warp * passes : nullptr);
  if (acc == 0x9e3779b9u) sink[0] = acc;
  if (warpNs != nullptr && threadIdx.x % 32 == 0) {
    warpNs[3 * warp] = start;
    warpNs[3 * warp + 1] = globalNsAfter(acc);  // after every value of the warp's lane 0 was summed
    warpNs[3 * warp + 2] = smId();
  }
}

// streamFixed over the blocks on the listed SMs only (numbered as in streamOnSms), with a build's
// IN_FLIGHT loads out per thread and nothing timed inside: the loop streamFixed gets, so the rate by
// warps and loads out says how many sectors one SM keeps in flight (its miss queue) and where its
// own ceiling is (the `smcap` step).
template <int IN_FLIGHT, LoadKind KIND>
__global__ void streamListed(const uint4* buf, size_t elems, int passes, const unsigned char* use, unsigned active,
                             unsigned* ticket, unsigned* sink) {
  const unsigned slot = listedSlot(use, active, ticket);
  if (slot >= active) return;
  const size_t grid = size_t(active) * blockDim.x;
  const unsigned acc =
      readPasses<IN_FLIGHT, KIND>(buf, elems, passes, size_t(slot) * blockDim.x + threadIdx.x, grid);
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// The buffer's address for streamDeepConst, in constant memory (the host sets entry 0 before each
// launch; the loop only ever reads that one).
__constant__ const uint4* constBuffer[64];

// Where a whole-step loop takes the buffer's address for the load of `element`: the launch's
// parameter, held in a register (streamDeep), or constBuffer, read with an LDC for each load
// (streamDeepConst). ptxas hoists a constant read at a fixed address out of the loop (the first
// smconst build: one ULDC before it), so the entry is indexed by `element` >> 40, which is 0 for
// every buffer here but varies with the loop as far as the compiler knows.
struct ParameterBuffer {
  const uint4* buf;
  __device__ __forceinline__ const uint4* operator()(size_t) const { return buf; }
};
struct ReloadedBuffer {
  __device__ __forceinline__ const uint4* operator()(size_t element) const { return constBuffer[(element >> 40) & 63]; }
};

// smsteps' histogram of steps by cycles (a warp's loads issued until every lane has their values):
// STEP_TIME_BINS bins of STEP_TIME_BIN_CYCLES from STEP_TIME_BASE_CYCLES, the first also taking what
// lies below and the last what lies above, summed over every warp of every launch.
constexpr int STEP_TIME_BINS = 64, STEP_TIME_BIN_CYCLES = 32, STEP_TIME_BASE_CYCLES = 256;
__device__ unsigned stepTimes[STEP_TIME_BINS];

// The whole-step loop: the host gives `elems` a multiple of IN_FLIGHT × the grid, so no load waits
// on a bounds test and the warp issues all IN_FLIGHT before it uses any. TIMED also counts each
// step into stepTimes (each lane keeps two bins in registers and adds them once at the end, so the
// timing puts no stores on the memory path while the loop runs).
// A warp's loads in a step lie `spacing` elements apart, a divisor of the grid's threads (the grid
// itself unless a run names another): in each block of IN_FLIGHT × grid elements, thread t reads
// column t mod spacing of group t / spacing, so the grid still reads every element once and the
// spacing can be chosen apart from what is in flight.
template <int IN_FLIGHT, class Buffer, bool TIMED = false>
__device__ __forceinline__ unsigned readWholeSteps(Buffer buffer, size_t elems, int passes, unsigned slot,
                                                   size_t grid, size_t spacing) {
  unsigned acc = 0, lowBin = 0, highBin = 0;
  const int lane = int(threadIdx.x % 32);
  const size_t thread = size_t(slot) * blockDim.x + threadIdx.x;
  const size_t first = thread / spacing * IN_FLIGHT * spacing + thread % spacing;
  for (int pass = 0; pass < passes; pass++) {
    for (size_t i = first; i < elems; i += IN_FLIGHT * grid) {
      const long long stepStart = TIMED ? clockNow() : 0;
      uint4 v[IN_FLIGHT];
#pragma unroll
      for (int j = 0; j < IN_FLIGHT; j++) v[j] = load<LoadKind::cg>(buffer(i + j * spacing) + i + j * spacing);
#pragma unroll
      for (int j = 0; j < IN_FLIGHT; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
      if (TIMED) {
        const long long cycles = clockAfter(__reduce_xor_sync(0xffffffffu, acc)) - stepStart;
        const int bin = min(max(int((cycles - STEP_TIME_BASE_CYCLES) / STEP_TIME_BIN_CYCLES), 0), STEP_TIME_BINS - 1);
        lowBin += bin == lane;
        highBin += bin == lane + 32;
      }
    }
  }
  if (TIMED) {
    atomicAdd(&stepTimes[lane], lowBin);
    atomicAdd(&stepTimes[lane + 32], highBin);
  }
  return acc;
}

// streamListed with whole steps only: streamListed's loop of eight compiles to two groups of four.
// For `smdepth`: a warp's round trip by the loads it keeps out, up to the ≈ 12 of a Flash-LLM warp's
// round. Without the launch bound ptxas keeps every count at 32 registers (full occupancy), which
// leaves no room for eight 16-byte values: it interleaves the uses with the loads again.
// TIMED (smsteps) also counts each step by its cycles: how a step's round trip spreads, not only its mean.
template <int IN_FLIGHT, bool TIMED = false>
__global__ void __launch_bounds__(256, 1)
    streamDeep(const uint4* buf, size_t elems, int passes, const unsigned char* use, unsigned active, unsigned* ticket,
               unsigned* sink, size_t spacing) {
  const unsigned slot = listedSlot(use, active, ticket);
  if (slot >= active) return;
  const size_t grid = size_t(active) * blockDim.x;
  const unsigned acc =
      readWholeSteps<IN_FLIGHT, ParameterBuffer, TIMED>(ParameterBuffer{buf}, elems, passes, slot, grid, spacing);
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// streamDeep with an LDC of the buffer's address before each load, its only change: the
// bounds-tested loops (streamListed, streamOnSms, streamFixed) reload their pointer parameter so
// (an LDC before each LDG in their SASS), the whole-step loop does not, and the two read apart
// once an SM's warps keep several loads out (gpu/probes/README.md, "Twenty-fifth batch"). `buf` is
// the launch's like the other loops' (the host also writes it to constBuffer); the loop reads the latter.
template <int IN_FLIGHT>
__global__ void __launch_bounds__(256, 1)
    streamDeepConst(const uint4* buf, size_t elems, int passes, const unsigned char* use, unsigned active,
                    unsigned* ticket, unsigned* sink, size_t spacing) {
  const unsigned slot = listedSlot(use, active, ticket);
  if (slot >= active) return;
  const size_t grid = size_t(active) * blockDim.x;
  const unsigned acc = readWholeSteps<IN_FLIGHT>(ReloadedBuffer{}, elems, passes, slot, grid, spacing);
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// A step's cycles (its four loads issued until their values are in) in bins of STEP_BIN_CYCLES, one
// per lane, the last also taking what lies above.
constexpr int STEP_BIN_CYCLES = 128;

// streamOnSms with the chunks dealt by a table: warp w reads, in each pass, the 512-byte chunks
// order[32 w], order[32 w + 1], … (−1 ends its list), lane l the 16 bytes at l, 4 chunks in flight as
// the fixed stream's warp. The table dealt g, g + W, g + 2 W, … (W warps) reads what streamOnSms does.
// With `stepBins`, each warp also counts its steps by their cycles: 32 bins per warp.
__global__ void streamOrdered(const uint4* buf, const int* order, int passes, const unsigned char* use,
                              unsigned active, unsigned* ticket, unsigned* sink, unsigned long long* warpNs,
                              unsigned long long* passNs, unsigned* stepBins) {
  const unsigned slot = listedSlot(use, active, ticket);
  if (slot >= active) return;
  const unsigned lane = threadIdx.x % 32;
  const size_t warp = size_t(slot) * (blockDim.x / 32) + threadIdx.x / 32;
  const int mine = order[warp * 32 + lane];
  const int steps = __popc(__ballot_sync(0xffffffffu, mine >= 0));
  const unsigned long long start = globalNsAfter(0);
  unsigned acc = 0, binCount = 0;
  for (int pass = 0; pass < passes; pass++) {
    for (int s = 0; s < steps; s += 4) {
      const long long stepStart = stepBins != nullptr ? clockNow() : 0;
      uint4 v[4];
#pragma unroll
      for (int j = 0; j < 4; j++) {
        const int chunk = __shfl_sync(0xffffffffu, mine, (s + j) & 31);
        v[j] = s + j < steps ? load<LoadKind::cg>(buf + size_t(chunk) * 32 + lane) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int j = 0; j < 4; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
      if (stepBins != nullptr) {
        // Every lane's values are in once the warp's slowest lane has them.
        const unsigned all = __reduce_xor_sync(0xffffffffu, acc);
        const long long cycles = clockAfter(all) - stepStart;
        binCount += min(int(cycles / STEP_BIN_CYCLES), 31) == int(lane);
      }
    }
    if (passNs != nullptr && lane == 0) passNs[warp * passes + pass] = globalNsAfter(acc);
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
  if (stepBins != nullptr) stepBins[warp * 32 + lane] = binCount;
  if (warpNs != nullptr && lane == 0) {
    warpNs[3 * warp] = start;
    warpNs[3 * warp + 1] = globalNsAfter(acc);
    warpNs[3 * warp + 2] = smId();
  }
}

// rotsteps: streamRotating's walk in whole steps (the host makes the total a multiple of 4 × the
// grid, so no load waits on a bounds test), each warp's steps counted by cycles into `stepBins` (as
// streamOrdered) and its start, end and SM into `warpNs` (as streamOnSms). In this walk a line's
// next reader is another warp, (elements mod grid) / 32 warps on, so a warp that runs ahead of the
// one before it finds that warp's lines in the L2: do the hits past the L2's size go to some warps
// throughout, or to all a little? The launch bound keeps the whole grid resident at once, as the
// untimed loop (29 registers) is: without it ptxas takes 37 (39 in the first version, which kept the
// start through the loop), and a quarter of the blocks wait for a second wave. Steps are counted in bins of ROTATING_STEP_BIN_CYCLES: under the full grid a step
// from DRAM takes 4,000 cycles and more.
constexpr int ROTATING_STEP_BIN_CYCLES = 256;
__global__ void __launch_bounds__(256, 8)
    streamRotatingSteps(const uint4* buf, size_t elems, size_t total, unsigned* sink, unsigned long long* warpNs,
                        unsigned* stepBins) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const size_t tid = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  const size_t warp = tid / 32;
  // Written now, so the start's 64 bits are not kept through the loop (they spilled).
  if (lane == 0) warpNs[3 * warp] = globalNsAfter(0);
  unsigned acc = 0, binCount = 0;
  for (size_t i = tid; i < total; i += 4 * grid) {
    const long long stepStart = clockNow();
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) v[j] = load<LoadKind::cg>(buf + (i + j * grid) % elems);
#pragma unroll
    for (int j = 0; j < 4; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    const unsigned all = __reduce_xor_sync(0xffffffffu, acc);
    binCount += min(int((clockAfter(all) - stepStart) / ROTATING_STEP_BIN_CYCLES), 31) == int(lane);
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
  stepBins[warp * 32 + lane] = binCount;
  if (lane == 0) {
    warpNs[3 * warp + 1] = globalNsAfter(acc);
    warpNs[3 * warp + 2] = smId();
  }
}

// rotpart: streamRotating's walk (the same loop) over a grid whose warps take their places in it by
// L2 partition, in runs of 2^runBits warps taking turns: the k-th warp to start in partition p
// (`inPartition[sm]`) is warp (2·⌊k / run⌋ + p)·run + k mod run of the walk (2k + p with runs of one),
// and where one partition has more warps its k-th past the other's count is warp 2·fewer + (k − fewer).
// `fewer` is a multiple of the run; `tickets` (two counters) is zeroed before each launch.
__global__ void __launch_bounds__(256, 8)
    streamRotatingByPartition(const uint4* buf, size_t elems, size_t total, const unsigned char* inPartition,
                              unsigned fewer, unsigned runBits, unsigned* tickets, unsigned* sink) {
  const size_t grid = size_t(gridDim.x) * blockDim.x;
  const unsigned lane = threadIdx.x % 32;
  unsigned place = 0;
  if (lane == 0) {
    const unsigned partition = inPartition[smId()];
    const unsigned k = atomicAdd(tickets + partition, 1u);
    const unsigned inRun = k & ((1u << runBits) - 1);
    place = k < fewer ? ((((k >> runBits) << 1) + partition) << runBits) + inRun : fewer + k;
  }
  const size_t tid = size_t(__shfl_sync(0xffffffffu, place, 0)) * 32 + lane;
  const unsigned acc = rotatingWalk<4, LoadKind::cg>(buf, elems, total, tid, grid);
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// rothome: the rotating stream with each L2 partition's warps walking a list of blocks of their own.
// In the `home` walk the 4 KiB blocks homed in a partition (`homeBlocks`: partition 0's
// `blockCounts.x`, then partition 1's) are its own footprint, and its warps (placed by ticket, as
// rotpart's) walk it as streamRotating walks a buffer, `passes` times: no SM reads a far-homed line,
// so no partition holds a copy, and what one keeps past its size is its own home lines. A step's
// block addresses come from the list (one load a step, the same for the warp's lanes, an L1 hit).
// The `far` walk gives each partition the other's blocks: every read crosses the fabric, and what a
// partition keeps for its SMs is copies. The `oneway` walk is the
// `far` walk with partition 1's list empty, so its warps leave at once. The `mixed` walk gives
// every SM partition 0, the identity list and the whole grid: the plain rotating stream through the
// same list.
constexpr size_t HOME_BLOCK_BYTES = 4096, HOME_BLOCK_ELEMS = HOME_BLOCK_BYTES / sizeof(uint4);
__global__ void __launch_bounds__(256, 8)
    streamRotatingByHome(const uint4* buf, const unsigned* homeBlocks, uint2 blockCounts,
                         const unsigned char* inPartition, uint2 warpCounts, unsigned passes, unsigned* tickets,
                         unsigned* sink) {
  const unsigned lane = threadIdx.x % 32;
  unsigned place = 0, partition = 0;
  if (lane == 0) {
    partition = inPartition[smId()];
    place = atomicAdd(tickets + partition, 1u);
  }
  place = __shfl_sync(0xffffffffu, place, 0);
  partition = __shfl_sync(0xffffffffu, partition, 0);
  const unsigned* blocks = homeBlocks + (partition ? blockCounts.x : 0);
  const size_t elems = size_t(partition ? blockCounts.y : blockCounts.x) * HOME_BLOCK_ELEMS;
  const size_t grid = size_t(partition ? warpCounts.y : warpCounts.x) * 32, total = elems * passes;
  if (elems == 0) return;
  unsigned acc = 0;
  for (size_t i = size_t(place) * 32 + lane; i < total; i += 4 * grid) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const size_t k = i + j * grid, e = k % elems;
      v[j] = k < total ? load<LoadKind::cg>(buf + size_t(__ldg(blocks + e / HOME_BLOCK_ELEMS)) * HOME_BLOCK_ELEMS +
                                            e % HOME_BLOCK_ELEMS)
                       : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int j = 0; j < 4; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

// A line's class: its load's cycles in 32-cycle steps from LINE_CLASS_BASE, the first and last class
// also taking what lies below and above. On the H200 (l2Replacement, results/2026-12-02d) a near
// hit takes 256–350 cycles (classes 1–3), a far hit 416–511 (6–8), a line of the reading SM's
// partition from DRAM 512–607 (9–11), one of the other partition from DRAM 672 and more (14–15).
constexpr int LINE_CLASS_BASE = 224, LINE_CLASS_CYCLES = 32, LINE_CLASSES = 16, NEAR_CLASSES = 5;
constexpr int OWN_DRAM_CLASS = 9;  // the first class of a line from the walking SM's own partition's DRAM
constexpr int LINE_HISTOGRAM_BINS = 64;  // 32 cycles each: 0 … 2047, the last bin also takes the rest

// One thread of the first block on SM `target` reads the first 4 bytes of every line once, in
// address order, each load's address waiting on the value before (`zero` is 0), and times each. The
// classes stay in shared memory, two per byte, until the walk is over, so the walk's only global
// traffic is its own loads.
__global__ void lineTimes(const unsigned* buf, unsigned lines, unsigned target, unsigned zero, unsigned* claim,
                          unsigned char* classesOut, unsigned* histogramOut, unsigned* sink) {
  extern __shared__ unsigned char classes[];
  __shared__ unsigned histogram[LINE_HISTOGRAM_BINS];
  __shared__ volatile unsigned landing;
  if (threadIdx.x != 0 || smId() != target || atomicCAS(claim, 0u, 1u) != 0u) return;
  for (unsigned i = 0; i < (lines + 1) / 2; i++) classes[i] = 0;
  for (int i = 0; i < LINE_HISTOGRAM_BINS; i++) histogram[i] = 0;
  unsigned at = 0;
  for (unsigned line = 0; line < lines; line++) {
    const unsigned* p = buf + size_t(line) * 32 + (at & zero);
    const long long t0 = clockNow();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(at) : "l"(p));
    landing = at;
    const int cycles = int(clockNow() - t0);
    histogram[min(cycles / 32, LINE_HISTOGRAM_BINS - 1)]++;
    const int lineClass = min(max(cycles - LINE_CLASS_BASE, 0) / LINE_CLASS_CYCLES, LINE_CLASSES - 1);
    classes[line / 2] |= lineClass << (4 * (line % 2));
  }
  for (unsigned i = 0; i < (lines + 1) / 2; i++) classesOut[i] = classes[i];
  for (int i = 0; i < LINE_HISTOGRAM_BINS; i++) histogramOut[i] = histogram[i];
  sink[0] = at;
}

__global__ void smOfBlock(unsigned* sm) {
  if (threadIdx.x == 0) sm[blockIdx.x] = smId();
}

static double clockGhz() {
  int device = 0, khz = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  return khz / 1e6;
}

using FixedKernel = void (*)(const uint4*, size_t, int, unsigned*);
using RotatingKernel = void (*)(const uint4*, size_t, size_t, unsigned*);
using ListedKernel = void (*)(const uint4*, size_t, int, const unsigned char*, unsigned, unsigned*, unsigned*);
struct StreamKernels {
  FixedKernel fixed;
  RotatingKernel rotating;
  ListedKernel listed;
};

template <int IN_FLIGHT>
static StreamKernels kernelsFor(LoadKind kind) {
  if (kind == LoadKind::cg)
    return {streamFixed<IN_FLIGHT, LoadKind::cg>, streamRotating<IN_FLIGHT, LoadKind::cg>,
            streamListed<IN_FLIGHT, LoadKind::cg>};
  return {streamFixed<IN_FLIGHT, LoadKind::ca>, streamRotating<IN_FLIGHT, LoadKind::ca>,
          streamListed<IN_FLIGHT, LoadKind::ca>};
}

// The whole-step loops take the spacing of a warp's loads as well (readWholeSteps).
using DeepKernel = void (*)(const uint4*, size_t, int, const unsigned char*, unsigned, unsigned*, unsigned*, size_t);

// The whole-step loop keeping `inFlight` out, with an LDC before each load if `reload`, or its steps
// timed if `timed` (either 1 … 8 out).
static DeepKernel deepKernel(int inFlight, bool reload, bool timed) {
  switch (inFlight) {
    case 1: return timed ? streamDeep<1, true> : reload ? streamDeepConst<1> : streamDeep<1>;
    case 2: return timed ? streamDeep<2, true> : reload ? streamDeepConst<2> : streamDeep<2>;
    case 4: return timed ? streamDeep<4, true> : reload ? streamDeepConst<4> : streamDeep<4>;
    case 8: return timed ? streamDeep<8, true> : reload ? streamDeepConst<8> : streamDeep<8>;
    case 12: return reload || timed ? nullptr : streamDeep<12>;
    case 16: return reload || timed ? nullptr : streamDeep<16>;
    default: return nullptr;
  }
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

// A footprint given in MiB as 16-byte elements, in whole 512-byte warp chunks (so a fraction of a MiB
// counts: in the rotating walk it sets which warp reads a line next, (elements mod grid) / 32 warps
// on); 0, with a message naming the probe, under one chunk.
static size_t footprintElems(const char* probe, double footprintMiB) {
  if (!(footprintMiB * 2048 >= 1)) {
    fprintf(stderr, "l2Partitions: %s footprint %g MiB: give at least one 512-byte chunk\n", probe, footprintMiB);
    return 0;
  }
  return size_t(footprintMiB * 2048) * (512 / sizeof(uint4));
}

static int runStream(double footprintMiB, const char* mapping, size_t totalMiB, int blocksPerSm, int threads,
                     int inFlight, const char* loadName) {
  const bool cached = strcmp(loadName, "ca") == 0;
  StreamKernels kernels;
  if ((!cached && strcmp(loadName, "cg") != 0) || !streamKernels(inFlight, cached ? LoadKind::ca : LoadKind::cg, &kernels)) {
    fprintf(stderr, "l2Partitions: in flight %d, load %s: give 1, 2, 4 or 8 and cg or ca\n", inFlight, loadName);
    return 2;
  }
  const size_t elems = footprintElems("stream", footprintMiB);
  if (elems == 0) return 2;
  const size_t footprint = elems * sizeof(uint4), total = totalMiB << 20, totalElems = total / sizeof(uint4);
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

// A random cyclic order of the lines of `footprint` bytes, as `chase` walks it: next[line · 32]
// holds the line after `line`; returns the first line.
static unsigned cyclicOrder(size_t lines, std::vector<unsigned>& next) {
  std::vector<unsigned> order(lines);
  for (size_t i = 0; i < lines; i++) order[i] = unsigned(i);
  std::mt19937 random(1);
  std::shuffle(order.begin(), order.end(), random);
  next.assign(lines * 32, 0);
  for (size_t i = 0; i < lines; i++) next[size_t(order[i]) * 32] = order[(i + 1) % lines];
  return order[0];
}

static int runChase(size_t footprintKiB, int loads) {
  const size_t lines = (footprintKiB << 10) / 128;
  std::vector<unsigned> next;
  const unsigned first = cyclicOrder(lines, next);
  unsigned *deviceNext, *sink;
  long long* cycles;
  CHECK(cudaMalloc(&deviceNext, next.size() * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&cycles, sizeof(long long)));
  CHECK(cudaMemcpy(deviceNext, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  chase<<<1, 1>>>(deviceNext, unsigned(lines), loads, first, cycles, sink);
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

// Which SMs share SM 0's partition: for each SM a buffer of its own, walked twice by SM 0 (its
// lines then sit in their home slices and SM 0's partition keeps copies), then twice by the SM.
// The SM's first pass is near throughout if it shares SM 0's copies; otherwise it pays the other
// partition's cost for the lines it finds only there.
static int runSmMap(size_t footprintKiB) {
  const size_t lines = (footprintKiB << 10) / 128, words = lines * 32;
  const int sms = smCount();
  std::vector<unsigned> next;
  const unsigned start = cyclicOrder(lines, next);
  unsigned *deviceNext, *sink, *claim;
  long long* cycles;
  CHECK(cudaMalloc(&deviceNext, words * sizeof(unsigned) * sms));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&claim, sizeof(unsigned)));
  CHECK(cudaMalloc(&cycles, 2 * sizeof(long long)));
  for (int sm = 0; sm < sms; sm++)
    CHECK(cudaMemcpy(deviceNext + words * sm, next.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));
  const double ghz = clockGhz();
  for (int sm = 0; sm < sms; sm++) {
    const unsigned* region = deviceNext + words * sm;
    long long host[2] = {0, 0};
    for (unsigned walker : {0u, unsigned(sm)}) {
      CHECK(cudaMemset(claim, 0, sizeof(unsigned)));
      CHECK(cudaMemset(cycles, 0, 2 * sizeof(long long)));
      chaseOnSm<<<sms * 4, 32>>>(region, unsigned(lines), 2, walker, start, claim, cycles, sink);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(host, cycles, sizeof(host), cudaMemcpyDeviceToHost));
    printf("{\"probe\":\"smmap\",\"sm\":%d,\"footprintBytes\":%zu,\"firstPassCyclesPerLoad\":%.1f,"
           "\"secondPassCyclesPerLoad\":%.1f,\"ghz\":%.3f}\n",
           sm, footprintKiB << 10, double(host[0]) / lines, double(host[1]) / lines, ghz);
  }
  CHECK(cudaFree(deviceNext));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(claim));
  CHECK(cudaFree(cycles));
  return 0;
}

// Marks the SMs of a comma-separated list in `use`; returns how many, or -1 (with a message) for a bad list.
static int parseSmList(const char* list, std::vector<unsigned char>& use) {
  const int sms = int(use.size());
  int listed = 0;
  for (const char* at = list; *at;) {
    char* end;
    const long sm = strtol(at, &end, 10);
    if (end == at || sm < 0 || sm >= sms) {
      fprintf(stderr, "l2Partitions: SM list %s: give SM numbers below %d, separated by commas\n", list, sms);
      return -1;
    }
    listed += !use[sm];
    use[sm] = 1;
    at = *end == ',' ? end + 1 : end;
  }
  return listed;
}

// streamOnSms's warp rows of its last launch as CSV, times relative to the first start; with
// `passNs`, each pass's end too (columns pass0EndNs, …).
static int writeWarps(const char* file, const unsigned long long* warpNs, size_t warps,
                      const unsigned long long* passNs = nullptr, int passes = 0) {
  std::vector<unsigned long long> rows(3 * warps), ends(size_t(passes) * warps);
  CHECK(cudaMemcpy(rows.data(), warpNs, rows.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  if (passNs != nullptr)
    CHECK(cudaMemcpy(ends.data(), passNs, ends.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  unsigned long long first = ~0ull;
  for (size_t w = 0; w < warps; w++) first = std::min(first, rows[3 * w]);
  FILE* out = fopen(file, "w");
  if (out == nullptr) {
    fprintf(stderr, "l2Partitions: cannot write %s\n", file);
    return 1;
  }
  fprintf(out, "warp,sm,startNs,endNs");
  for (int p = 0; passNs != nullptr && p < passes; p++) fprintf(out, ",pass%dEndNs", p);
  fprintf(out, "\n");
  for (size_t w = 0; w < warps; w++) {
    fprintf(out, "%zu,%llu,%llu,%llu", w, rows[3 * w + 2], rows[3 * w] - first, rows[3 * w + 1] - first);
    for (int p = 0; passNs != nullptr && p < passes; p++) fprintf(out, ",%llu", ends[w * passes + p] - first);
    fprintf(out, "\n");
  }
  fclose(out);
  return 0;
}

// smsteps' JSON fields: the step-time histogram of every launch (bin b counts steps of
// STEP_TIME_BASE_CYCLES + b × STEP_TIME_BIN_CYCLES cycles and up) and its 10th, 50th, 90th and 99th
// percentiles, each a bin's middle.
static std::string stepTimesJson() {
  unsigned bins[STEP_TIME_BINS];
  CHECK(cudaMemcpyFromSymbol(bins, stepTimes, sizeof(bins)));
  double all = 0;
  for (unsigned count : bins) all += count;
  std::string json = ",\"stepBinBase\":" + std::to_string(STEP_TIME_BASE_CYCLES) +
                     ",\"stepBinCycles\":" + std::to_string(STEP_TIME_BIN_CYCLES) + ",\"stepBins\":[";
  for (int b = 0; b < STEP_TIME_BINS; b++) json += (b ? "," : "") + std::to_string(bins[b]);
  json += "]";
  for (const int percent : {10, 50, 90, 99}) {
    double below = 0;
    int b = 0;
    while (b < STEP_TIME_BINS - 1 && below + bins[b] < all * percent / 100) below += bins[b++];
    json += ",\"stepP" + std::to_string(percent) + "\":" +
            std::to_string(STEP_TIME_BASE_CYCLES + b * STEP_TIME_BIN_CYCLES + STEP_TIME_BIN_CYCLES / 2);
  }
  return json;
}

// The fixed stream by the blocks on the listed SMs, `blocksPerSm` of `threads` each (the grid is
// resident at once, so at most 2,048 threads an SM). With `inFlight` 0 (`streamsms`) it runs
// streamOnSms, which can write the warps' CSV; with 1, 2, 4 or 8 (`smstream`) streamListed, whose loop
// keeps that many loads out, as streamFixed's does; with `deep` (`smdepth`) streamDeep, 1 … 16 out
// in whole steps (the footprint's tail that fills no whole step is not read); with `reload` as well
// (`smconst`) streamDeepConst, 1 … 8 out, an LDC before each load; with `timed` (`smsteps`)
// streamDeep's timed build, 1 … 8 out, its steps' histogram in the JSON line. The whole-step loops
// space a warp's loads `spacingBytes` apart (0: the grid's threads × 16 B, as without it).
static int runStreamSms(size_t footprintMiB, const char* list, size_t totalMiB, const char* warpFile,
                        int blocksPerSm = 8, int threads = 256, int inFlight = 0, bool deep = false,
                        bool reload = false, bool timed = false, size_t spacingBytes = 0) {
  const int sms = smCount();
  StreamKernels kernels{};
  DeepKernel deepLoop = nullptr;
  if (deep) {
    deepLoop = deepKernel(inFlight, reload, timed);
    if (deepLoop == nullptr) {
      fprintf(stderr, "l2Partitions: in flight %d: give 1, 2, 4, 8%s\n", inFlight, reload || timed ? "" : ", 12 or 16");
      return 2;
    }
  } else if (inFlight != 0 && !streamKernels(inFlight, LoadKind::cg, &kernels)) {
    fprintf(stderr, "l2Partitions: in flight %d: give 1, 2, 4 or 8\n", inFlight);
    return 2;
  }
  if (blocksPerSm < 1 || threads < 32 || threads % 32 != 0 || blocksPerSm * threads > 2048) {
    fprintf(stderr, "l2Partitions: %d blocks of %d threads per SM: give whole warps, at most 2048 threads an SM\n",
            blocksPerSm, threads);
    return 2;
  }
  int fit = 0;
  if (deep) CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, deepLoop, threads, 0));
  else if (inFlight != 0) CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernels.listed, threads, 0));
  if (inFlight != 0 && fit < blocksPerSm) {
    // The blocks must all be resident at once, or the SM's later ones would stream after its first.
    fprintf(stderr, "l2Partitions: %d blocks of %d threads per SM with %d in flight: only %d fit an SM\n", blocksPerSm,
            threads, inFlight, fit);
    return 2;
  }
  std::vector<unsigned char> use(sms, 0);
  const int listed = parseSmList(list, use);
  if (listed < 0) return 2;
  const unsigned active = unsigned(listed * blocksPerSm);
  const size_t gridBytes = size_t(active) * threads * sizeof(uint4);
  if (spacingBytes == 0) spacingBytes = gridBytes;
  if (spacingBytes % (32 * sizeof(uint4)) != 0 || gridBytes % spacingBytes != 0) {
    fprintf(stderr, "l2Partitions: spacing %zu B: give whole warps' loads (512 B) that divide the grid's %zu B\n",
            spacingBytes, gridBytes);
    return 2;
  }
  const size_t footprint = footprintMiB << 20, step = deep ? size_t(inFlight) * active * threads : 1;
  const size_t elems = footprint / sizeof(uint4) / step * step;
  const int passes = int(((totalMiB << 20) + footprint - 1) / footprint);
  uint4* buf;
  unsigned *sink, *ticket;
  unsigned char* deviceUse;
  CHECK(cudaMalloc(&buf, footprint));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&ticket, sizeof(unsigned)));
  CHECK(cudaMalloc(&deviceUse, sms));
  CHECK(cudaMemset(buf, 0, footprint));
  CHECK(cudaMemcpy(deviceUse, use.data(), sms, cudaMemcpyHostToDevice));
  if (reload) CHECK(cudaMemcpyToSymbol(constBuffer, &buf, sizeof(buf)));
  const size_t warps = size_t(active) * (threads / 32);
  unsigned long long* warpNs = nullptr;
  if (warpFile != nullptr) CHECK(cudaMalloc(&warpNs, 3 * warps * sizeof(unsigned long long)));
  const unsigned noSteps[STEP_TIME_BINS] = {};
  if (timed) CHECK(cudaMemcpyToSymbol(stepTimes, noSteps, sizeof(noSteps)));
  const double ms = medianMs(5, [&] {
    CHECK(cudaMemsetAsync(ticket, 0, sizeof(unsigned)));
    if (inFlight == 0)
      streamOnSms<<<sms * blocksPerSm, threads>>>(buf, elems, passes, deviceUse, active, ticket, sink, warpNs, nullptr);
    else if (deep)
      deepLoop<<<sms * blocksPerSm, threads>>>(buf, elems, passes, deviceUse, active, ticket, sink,
                                               spacingBytes / sizeof(uint4));
    else
      kernels.listed<<<sms * blocksPerSm, threads>>>(buf, elems, passes, deviceUse, active, ticket, sink);
  });
  if (warpFile != nullptr) {
    if (writeWarps(warpFile, warpNs, warps) != 0) return 1;
    CHECK(cudaFree(warpNs));
  }
  unsigned took = 0;
  CHECK(cudaMemcpy(&took, ticket, sizeof(unsigned), cudaMemcpyDeviceToHost));
  const double bytes = double(passes) * double(elems * sizeof(uint4));
  const std::string steps = timed ? stepTimesJson() : "";
  const std::string spacing = deep ? ",\"spacingBytes\":" + std::to_string(spacingBytes) : "";
  printf("{\"probe\":\"%s\",\"footprintBytes\":%zu,\"sms\":%d,\"blocksPerSm\":%d,\"threads\":%d,\"inFlight\":%d,"
         "\"activeBlocks\":%u,\"blocksThatTookPart\":%u,\"bytes\":%.0f,\"medianMs\":%.4f,\"GBps\":%.1f,\"list\":\"%s\"%s%s}\n",
         timed ? "smsteps" : reload ? "smconst" : deep ? "smdepth" : inFlight == 0 ? "streamsms" : "smstream", footprint, listed,
         blocksPerSm, threads, inFlight == 0 ? 4 : inFlight,
         active, took, bytes, ms, bytes / ms / 1e6, list, spacing.c_str(), steps.c_str());
  CHECK(cudaFree(buf));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(ticket));
  CHECK(cudaFree(deviceUse));
  return 0;
}

// lineTimes on SM `probeSm` over `buf`: the classes (two per byte) and the histogram of its cycles.
struct LineWalk {
  std::vector<unsigned char> classes;
  std::vector<unsigned> histogram;
  int lineClass(size_t line) const { return (classes[line / 2] >> (4 * (line % 2))) & 15; }
};

static LineWalk walkLines(const uint4* buf, unsigned lines, unsigned probeSm) {
  const int sms = smCount();
  const size_t classBytes = (lines + 1) / 2;
  unsigned char* classes;
  unsigned *histogram, *claim, *sink;
  CHECK(cudaMalloc(&classes, classBytes));
  CHECK(cudaMalloc(&histogram, LINE_HISTOGRAM_BINS * sizeof(unsigned)));
  CHECK(cudaMalloc(&claim, sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemset(claim, 0, sizeof(unsigned)));
  // The shared memory allows one block per SM: four waves of them so that one lands on probeSm.
  lineTimes<<<4 * sms, 32, classBytes>>>(reinterpret_cast<const unsigned*>(buf), lines, probeSm, 0u, claim, classes,
                                          histogram, sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  LineWalk walk{std::vector<unsigned char>(classBytes), std::vector<unsigned>(LINE_HISTOGRAM_BINS)};
  CHECK(cudaMemcpy(walk.classes.data(), classes, classBytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(walk.histogram.data(), histogram, LINE_HISTOGRAM_BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(classes));
  CHECK(cudaFree(histogram));
  CHECK(cudaFree(claim));
  CHECK(cudaFree(sink));
  return walk;
}

// The walk's classes as hex digits, one per line of memory in address order, 1,024 to a row.
static int writeClasses(const char* file, const LineWalk& walk, unsigned lines) {
  FILE* out = fopen(file, "w");
  if (out == nullptr) {
    fprintf(stderr, "l2Partitions: cannot write %s\n", file);
    return 1;
  }
  for (unsigned line = 0; line < lines; line++)
    fprintf(out, "%x%s", walk.lineClass(line), line % 1024 == 1023 || line + 1 == lines ? "\n" : "");
  fclose(out);
  return 0;
}

// One JSON line for a walk: its lines per class, the histogram, and how many of its near lines
// (classes below NEAR_CLASSES) were near in `before` too (-1 without one).
static void printWalk(const char* what, int round, double ms, double bytes, const LineWalk& walk, unsigned lines,
                      const LineWalk* before, size_t footprint, int passes, int launches) {
  size_t counts[LINE_CLASSES] = {}, nearInBefore = 0;
  for (unsigned line = 0; line < lines; line++) {
    const int c = walk.lineClass(line);
    counts[c]++;
    nearInBefore += before != nullptr && c < NEAR_CLASSES && before->lineClass(line) < NEAR_CLASSES;
  }
  size_t nearLines = 0;
  for (int c = 0; c < NEAR_CLASSES; c++) nearLines += counts[c];
  printf("{\"probe\":\"streamkeep\",\"walk\":\"%s\",\"round\":%d,\"footprintBytes\":%zu,\"passes\":%d,"
         "\"launches\":%d,\"streamMs\":%.4f,\"GBps\":%.1f,\"lines\":%u,\"nearLines\":%zu,\"nearAlsoBefore\":%lld,"
         "\"classBase\":%d,\"classCycles\":%d,\"classes\":[",
         what, round, footprint, passes, launches, ms, ms > 0 ? bytes / ms / 1e6 : 0.0, lines, nearLines,
         before != nullptr ? (long long)nearInBefore : -1ll, LINE_CLASS_BASE, LINE_CLASS_CYCLES);
  for (int c = 0; c < LINE_CLASSES; c++) printf("%s%zu", c ? "," : "", counts[c]);
  printf("],\"histogram32\":[");
  for (int b = 0; b < LINE_HISTOGRAM_BINS; b++) printf("%s%u", b ? "," : "", walk.histogram[b]);
  printf("]}\n");
}

// How streamkeep deals a warp its 512-byte chunks: `fixed`, streamOnSms itself; through streamOrdered,
// `natural` (the same chunks as fixed, by table: what the table costs), `split` (even warps only
// chunks homed in the listed SMs' partition, odd warps only the other's, each in address order) and
// `halves` (every warp a near-homed and a far-homed chunk in turn); `near` and `far` read only the
// footprint's chunks homed in one partition, dealt over all warps as natural deals the whole.
enum class ChunkOrder { fixed, natural, split, halves, near, far };
constexpr struct {
  const char* name;
  ChunkOrder order;
} CHUNK_ORDERS[] = {{"fixed", ChunkOrder::fixed},
                    {"natural", ChunkOrder::natural},
                    {"split", ChunkOrder::split},
                    {"halves", ChunkOrder::halves},
                    {"near", ChunkOrder::near},
                    {"far", ChunkOrder::far}};

constexpr size_t CHUNK_BYTES = 512;
// A home map's run: the bytes one partition's SMs stream and walk, and the one-pass launches before the
// walk. streamkeep's: 56 MiB in 12 launches leave 0.5 % of the lines near on the H200 (gpu/probes/README.md,
// "The sixteenth batch's maps read again"). rothome maps 40 MiB at a time in 36 launches, as `homemap`
// did on the H100, whose partition holds less: the far-homed half must stay in the other partition.
struct HomeMapRun {
  size_t bytes;
  int launches;
};
constexpr size_t HOME_MAP_BYTES = size_t(56) << 20;
constexpr HomeMapRun STREAMKEEP_HOME_MAP{HOME_MAP_BYTES, 12}, ROTHOME_HOME_MAP{size_t(40) << 20, 36};

// Per 4 KiB block of `buf` (map.bytes): 1 if homed in probeSm's partition, 0 if in the other, after
// map.launches one-pass launches of the listed SMs' fixed stream over all of it. The walk then
// finds a line homed far as a far hit (classes 5–8) and one homed near from DRAM (9 and up); a
// block takes its lines' majority, a tie or no vote near (`unknown` counts those).
static std::vector<unsigned char> homesOfBlocks(const uint4* buf, int blocks, int threads, const unsigned char* deviceUse,
                                                unsigned active, unsigned* ticket, unsigned* sink, int probeSm,
                                                size_t* unknown, const HomeMapRun& map) {
  for (int launch = 0; launch < map.launches; launch++) {
    CHECK(cudaMemsetAsync(ticket, 0, sizeof(unsigned)));
    streamOnSms<<<blocks, threads>>>(buf, map.bytes / sizeof(uint4), 1, deviceUse, active, ticket, sink, nullptr,
                                     nullptr);
  }
  const unsigned lines = unsigned(map.bytes / 128), blockLines = HOME_BLOCK_BYTES / 128;
  const LineWalk walk = walkLines(buf, lines, unsigned(probeSm));
  std::vector<unsigned char> homes(lines / blockLines);
  *unknown = 0;
  for (size_t block = 0; block < homes.size(); block++) {
    int near = 0, far = 0;
    for (unsigned line = block * blockLines; line < (block + 1) * blockLines; line++) {
      const int c = walk.lineClass(line);
      near += c >= OWN_DRAM_CLASS;
      far += c >= NEAR_CLASSES && c < OWN_DRAM_CLASS;
    }
    homes[block] = near >= far;
    *unknown += near == far;
  }
  return homes;
}

// The table streamOrdered reads (32 entries per warp, −1 past a warp's list) for the `chunks` chunks of a
// footprint over `warps` warps; false if a warp would get more than 32.
static bool dealChunks(ChunkOrder order, const std::vector<unsigned char>& homes, size_t chunks, size_t warps,
                       std::vector<int>* table) {
  std::vector<int> lists[2];
  for (size_t c = 0; c < chunks; c++) lists[homes[c * CHUNK_BYTES / HOME_BLOCK_BYTES]].push_back(int(c));
  const std::vector<int>&near = lists[1], &far = lists[0];
  table->assign(warps * 32, -1);
  const size_t half = warps / 2;
  for (size_t g = 0; g < warps; g++) {
    std::vector<int> mine;
    if (order == ChunkOrder::natural)
      for (size_t c = g; c < chunks; c += warps) mine.push_back(int(c));
    else if (order == ChunkOrder::near || order == ChunkOrder::far)
      for (size_t i = g; i < (order == ChunkOrder::far ? far : near).size(); i += warps)
        mine.push_back((order == ChunkOrder::far ? far : near)[i]);
    else if (order == ChunkOrder::split)
      for (size_t i = g / 2; i < (g % 2 ? far : near).size(); i += half)
        mine.push_back((g % 2 ? far : near)[i]);
    else
      for (size_t i = g; i < near.size() || i < far.size(); i += warps) {
        if (i < near.size()) mine.push_back(near[i]);
        if (i < far.size()) mine.push_back(far[i]);
      }
    if (mine.size() > 32) return false;
    std::copy(mine.begin(), mine.end(), table->begin() + g * 32);
  }
  return true;
}

// Per warp, its steps by cycles in the last launch (streamOrdered's `stepBins`, or rotsteps' with
// bins of `binCycles`): PREFIX-steps.csv.
static int writeStepBins(const char* file, const unsigned* deviceBins, size_t warps, int binCycles = STEP_BIN_CYCLES) {
  std::vector<unsigned> bins(warps * 32);
  CHECK(cudaMemcpy(bins.data(), deviceBins, bins.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  FILE* out = fopen(file, "w");
  if (out == nullptr) {
    fprintf(stderr, "l2Partitions: cannot write %s\n", file);
    return 1;
  }
  fprintf(out, "warp");
  for (int b = 0; b < 32; b++) fprintf(out, ",from%d", b * binCycles);
  fprintf(out, "\n");
  for (size_t w = 0; w < warps; w++) {
    fprintf(out, "%zu", w);
    for (int b = 0; b < 32; b++) fprintf(out, ",%u", bins[w * 32 + b]);
    fprintf(out, "\n");
  }
  fclose(out);
  return 0;
}

// Per warp, its chunks and how many of them are homed near: PREFIX-shares.csv.
static int writeShares(const char* file, const std::vector<int>& table, const std::vector<unsigned char>& homes,
                       size_t warps) {
  FILE* out = fopen(file, "w");
  if (out == nullptr) {
    fprintf(stderr, "l2Partitions: cannot write %s\n", file);
    return 1;
  }
  fprintf(out, "warp,chunks,nearChunks\n");
  for (size_t g = 0; g < warps; g++) {
    int chunks = 0, near = 0;
    for (int s = 0; s < 32 && table[g * 32 + s] >= 0; s++) {
      chunks++;
      near += homes[size_t(table[g * 32 + s]) * CHUNK_BYTES / HOME_BLOCK_BYTES];
    }
    fprintf(out, "%zu,%d,%d\n", g, chunks, near);
  }
  fclose(out);
  return 0;
}

// Rounds of `launches` launches of the listed SMs' stream (`passes` each, its chunks dealt by
// `orderName`), each round followed by lineTimes on probeSm: PREFIX-ROUND.hex (the classes),
// PREFIX-ROUND.csv (the last launch's warps; in the last round also each pass's end).
// Then the buffer is written once more and walked again: PREFIX-home.hex. The rewrite was meant to
// leave each line in its home slices only; on the H200 it does not (a quarter of a 24 MiB buffer's
// lines homed far are near after it: gpu/probes/README.md, "Sixteenth batch").
// An order other than `fixed` first maps the homes (homesOfBlocks, on a buffer of at least
// HOME_MAP_BYTES whose first footprint the stream reads) and writes PREFIX-shares.csv.
static int runStreamKeep(size_t footprintMiB, const char* list, int passes, int launches, int probeSm,
                         const char* prefix, int rounds, const char* orderName, bool timeSteps) {
  const int sms = smCount(), blocksPerSm = 8, threads = 256;
  std::vector<unsigned char> use(sms, 0);
  const int listed = parseSmList(list, use);
  if (listed < 0) return 2;
  const auto* known = std::find_if(std::begin(CHUNK_ORDERS), std::end(CHUNK_ORDERS),
                                   [&](const auto& entry) { return strcmp(entry.name, orderName) == 0; });
  if (known == std::end(CHUNK_ORDERS)) {
    fprintf(stderr, "l2Partitions: order %s: give fixed, natural, split, halves, near or far\n", orderName);
    return 2;
  }
  const ChunkOrder order = known->order;
  const size_t footprint = footprintMiB << 20, elems = footprint / sizeof(uint4);
  if ((order == ChunkOrder::fixed && timeSteps) || (order != ChunkOrder::fixed && footprint > HOME_MAP_BYTES)) {
    fprintf(stderr, "l2Partitions: order %s maps the homes of %zu MiB at most, and times steps only through a table\n",
            orderName, HOME_MAP_BYTES >> 20);
    return 2;
  }
  const size_t bufBytes = order == ChunkOrder::fixed ? footprint : std::max(footprint, HOME_MAP_BYTES);
  const unsigned lines = unsigned(footprint / 128);
  const size_t classBytes = (bufBytes / 128 + 1) / 2;
  if (passes < 1 || launches < 1 || rounds < 1 || probeSm < 0 || probeSm >= sms ||
      cudaFuncSetAttribute(lineTimes, cudaFuncAttributeMaxDynamicSharedMemorySize, int(classBytes)) != cudaSuccess) {
    fprintf(stderr, "l2Partitions: streamkeep needs passes, launches and rounds ≥ 1, a probe SM below %d and "
            "a footprint whose classes (%zu bytes) fit one SM's shared memory\n", sms, classBytes);
    return 2;
  }
  const unsigned active = unsigned(listed * blocksPerSm);
  const size_t warps = size_t(active) * (threads / 32);
  uint4* buf;
  unsigned *sink, *ticket;
  unsigned char* deviceUse;
  unsigned long long *warpNs, *passNs;
  int* deviceTable = nullptr;
  unsigned* stepBins = nullptr;
  if (timeSteps) CHECK(cudaMalloc(&stepBins, warps * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&buf, bufBytes));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&ticket, sizeof(unsigned)));
  CHECK(cudaMalloc(&deviceUse, sms));
  CHECK(cudaMalloc(&warpNs, 3 * warps * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&passNs, size_t(passes) * warps * sizeof(unsigned long long)));
  CHECK(cudaMemset(buf, 0, bufBytes));
  CHECK(cudaMemcpy(deviceUse, use.data(), sms, cudaMemcpyHostToDevice));
  std::string name(prefix);
  size_t passBytes = footprint;  // what one pass reads: less than the footprint for `near` and `far`
  if (order != ChunkOrder::fixed) {
    size_t unknown = 0;
    const std::vector<unsigned char> homes =
        homesOfBlocks(buf, sms * blocksPerSm, threads, deviceUse, active, ticket, sink, probeSm, &unknown,
                      STREAMKEEP_HOME_MAP);
    std::vector<int> table;
    if (!dealChunks(order, homes, footprint / CHUNK_BYTES, warps, &table)) {
      fprintf(stderr, "l2Partitions: order %s deals a warp more than 32 chunks of %zu MiB\n", orderName, footprintMiB);
      return 2;
    }
    if (writeShares((name + "-shares.csv").c_str(), table, homes, warps) != 0) return 1;
    size_t nearBlocks = 0;
    for (size_t b = 0; b < footprint / HOME_BLOCK_BYTES; b++) nearBlocks += homes[b];
    passBytes = CHUNK_BYTES * size_t(std::count_if(table.begin(), table.end(), [](int c) { return c >= 0; }));
    printf("{\"probe\":\"streamkeep\",\"walk\":\"homes\",\"order\":\"%s\",\"footprintBytes\":%zu,\"blocks\":%zu,"
           "\"nearBlocks\":%zu,\"unknownBlocksOfMap\":%zu,\"passBytes\":%zu}\n",
           orderName, footprint, footprint / HOME_BLOCK_BYTES, nearBlocks, unknown, passBytes);
    CHECK(cudaMalloc(&deviceTable, table.size() * sizeof(int)));
    CHECK(cudaMemcpy(deviceTable, table.data(), table.size() * sizeof(int), cudaMemcpyHostToDevice));
  }
  LineWalk before;
  for (int round = 0; round < rounds; round++) {
    const double ms = timedMs([&] {
      for (int launch = 0; launch < launches; launch++) {
        CHECK(cudaMemsetAsync(ticket, 0, sizeof(unsigned)));
        if (deviceTable == nullptr)
          streamOnSms<<<sms * blocksPerSm, threads>>>(buf, elems, passes, deviceUse, active, ticket, sink, warpNs,
                                                      passNs);
        else
          streamOrdered<<<sms * blocksPerSm, threads>>>(buf, deviceTable, passes, deviceUse, active, ticket, sink,
                                                        warpNs, passNs, stepBins);
      }
    });
    const LineWalk walk = walkLines(buf, lines, unsigned(probeSm));
    const std::string at = name + "-" + std::to_string(round);
    // Each pass's end only for the last round: the files stay small, and one round is enough to replay.
    const bool last = round + 1 == rounds;
    if (writeWarps((at + ".csv").c_str(), warpNs, warps, last ? passNs : nullptr, passes) != 0 ||
        writeClasses((at + ".hex").c_str(), walk, lines) != 0)
      return 1;
    printWalk("stream", round, ms, double(launches) * passes * passBytes, walk, lines, round ? &before : nullptr,
              footprint, passes, launches);
    before = walk;
  }
  CHECK(cudaMemset(buf, 0, footprint));
  CHECK(cudaDeviceSynchronize());
  const LineWalk home = walkLines(buf, lines, unsigned(probeSm));
  if (writeClasses((name + "-home.hex").c_str(), home, lines) != 0) return 1;
  printWalk("home", rounds, 0, 0, home, lines, &before, footprint, passes, launches);
  CHECK(cudaFree(buf));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(ticket));
  CHECK(cudaFree(deviceUse));
  CHECK(cudaFree(warpNs));
  CHECK(cudaFree(passNs));
  if (deviceTable != nullptr) CHECK(cudaFree(deviceTable));
  if (stepBins != nullptr) {
    if (writeStepBins((name + "-steps.csv").c_str(), stepBins, warps) != 0) return 1;
    CHECK(cudaFree(stepBins));
  }
  return 0;
}

// rotsteps: the rotating stream's grid (8 blocks of 256 threads per SM) over `totalMiB` rounded down
// to whole steps, four launches (medianMs: one untimed, then three timed); the last launch's warps into
// PREFIX-warps.csv (writeWarps) and their steps by cycles into PREFIX-steps.csv (writeStepBins).
static int runRotatingSteps(size_t footprintMiB, size_t totalMiB, const char* prefix) {
  const int blocks = smCount() * 8, threads = 256;
  const size_t footprint = footprintMiB << 20, elems = footprint / sizeof(uint4);
  const size_t step = size_t(4) * blocks * threads, warps = size_t(blocks) * threads / 32;
  const size_t totalElems = (totalMiB << 20) / sizeof(uint4) / step * step;
  if (elems == 0 || totalElems == 0) {
    fprintf(stderr, "l2Partitions: rotsteps %zu MiB over %zu MiB: give at least 1 MiB and one step of the grid\n",
            footprintMiB, totalMiB);
    return 2;
  }
  uint4* buf;
  unsigned *sink, *stepBins;
  unsigned long long* warpNs;
  CHECK(cudaMalloc(&buf, footprint));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&stepBins, warps * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&warpNs, warps * 3 * sizeof(unsigned long long)));
  CHECK(cudaMemset(buf, 0, footprint));
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, streamRotatingSteps, threads, 0));
  const double ms = medianMs(3, [&] {
    streamRotatingSteps<<<blocks, threads>>>(buf, elems, totalElems, sink, warpNs, stepBins);
  });
  const double bytes = double(totalElems) * sizeof(uint4);
  printf("{\"probe\":\"rotsteps\",\"footprintBytes\":%zu,\"bytes\":%.0f,\"blocksPerSm\":8,\"threads\":%d,"
         "\"inFlight\":4,\"residentBlocksPerSm\":%d,\"nextReaderWarps\":%zu,\"medianMs\":%.4f,\"GBps\":%.1f,"
         "\"prefix\":\"%s\"}\n",
         footprint, bytes, threads, resident, elems % (size_t(blocks) * threads) / 32, ms, bytes / ms / 1e6, prefix);
  const std::string base(prefix);
  const int failed = writeWarps((base + "-warps.csv").c_str(), warpNs, warps) ||
                     writeStepBins((base + "-steps.csv").c_str(), stepBins, warps, ROTATING_STEP_BIN_CYCLES);
  CHECK(cudaFree(buf));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(stepBins));
  CHECK(cudaFree(warpNs));
  return failed;
}

// The share of the grid's warps whose next reader, `shift` warps on (mod `warps`), runs in the same
// partition, where the first 2·fewer places take turns in runs of `run` and the rest are one partition's.
static double samePartitionShare(size_t warps, size_t shift, size_t fewer, size_t run) {
  const auto partition = [&](size_t place) { return place < 2 * fewer ? place / run % 2 : 2; };
  size_t same = 0;
  for (size_t place = 0; place < warps; ++place) same += partition(place) == partition((place + shift) % warps);
  return double(same) / double(warps);
}

// rotpart: the rotating stream's grid (8 blocks of 256 threads per SM) over `totalMiB` rounded down to
// whole steps, its warps placed by partition in runs of `run` (streamRotatingByPartition; `list`: the
// SMs of one partition, the rest are the other), three timed launches after an untimed one.
static int runRotatingByPartition(double footprintMiB, size_t totalMiB, const char* list, unsigned run) {
  const int sms = smCount(), blocks = sms * 8, threads = 256;
  const size_t elems = footprintElems("rotpart", footprintMiB);
  if (elems == 0) return 2;
  const size_t step = size_t(4) * blocks * threads;
  const size_t totalElems = (totalMiB << 20) / sizeof(uint4) / step * step;
  // The listed SMs are partition 0, the rest partition 1.
  std::vector<unsigned char> inPartition(sms, 0);
  const int first = parseSmList(list, inPartition);
  if (first < 0) return 2;
  for (unsigned char& partition : inPartition) partition = !partition;
  if (totalElems == 0 || first == 0 || first == sms) {
    fprintf(stderr, "l2Partitions: rotpart over %zu MiB, %d of %d SMs listed: give one step of the grid and a "
            "partition's SMs\n", totalMiB, first, sms);
    return 2;
  }
  const unsigned fewer = unsigned(std::min(first, sms - first)) * 8 * threads / 32;
  if (run == 0 || (run & (run - 1)) != 0 || fewer % run != 0) {
    fprintf(stderr, "l2Partitions: rotpart runs of %u warps: give a power of two that divides %u\n", run, fewer);
    return 2;
  }
  const unsigned runBits = unsigned(__builtin_ctz(run));
  uint4* buf;
  unsigned char* deviceInPartition;
  unsigned *sink, *tickets;
  CHECK(cudaMalloc(&buf, elems * sizeof(uint4)));
  CHECK(cudaMalloc(&deviceInPartition, sms));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&tickets, 2 * sizeof(unsigned)));
  CHECK(cudaMemset(buf, 0, elems * sizeof(uint4)));
  CHECK(cudaMemcpy(deviceInPartition, inPartition.data(), sms, cudaMemcpyHostToDevice));
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, streamRotatingByPartition, threads, 0));
  const double ms = medianMs(3, [&] {
    CHECK(cudaMemsetAsync(tickets, 0, 2 * sizeof(unsigned)));
    streamRotatingByPartition<<<blocks, threads>>>(buf, elems, totalElems, deviceInPartition, fewer, runBits,
                                                   tickets, sink);
  });
  const double bytes = double(totalElems) * sizeof(uint4);
  const size_t warps = size_t(blocks) * threads / 32, nextReader = elems % (warps * 32) / 32;
  const double same = samePartitionShare(warps, nextReader, fewer, run);
  printf("{\"probe\":\"rotpart\",\"footprintBytes\":%zu,\"bytes\":%.0f,\"blocksPerSm\":8,\"threads\":%d,"
         "\"inFlight\":4,\"residentBlocksPerSm\":%d,\"partitionSms\":[%d,%d],\"warpsARun\":%u,"
         "\"nextReaderWarps\":%zu,\"nextReader\":\"%s\",\"samePartitionShare\":%.4f,\"medianMs\":%.4f,"
         "\"GBps\":%.1f}\n",
         elems * sizeof(uint4), bytes, threads, resident, first, sms - first, run, nextReader,
         same == 1 ? "same partition" : same == 0 ? "other partition" : "either", same, ms, bytes / ms / 1e6);
  CHECK(cudaFree(buf));
  CHECK(cudaFree(deviceInPartition));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(tickets));
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

// One block per SM (its shared memory allows no second), its SM recorded; launched in clusters.
__global__ void smOfClusterBlock(unsigned* sm) {
  extern __shared__ unsigned char reserve[];
  if (threadIdx.x == 0) {
    reserve[0] = 0;
    sm[blockIdx.x] = smId();
  }
}

// Clusters of every size the GPU allows, as many as fit at once: the blocks of a cluster share a
// GPC, so SMs that ever share a cluster share a GPC (gpu/probes/h200Batch.sh joins them).
static int runGpcMap() {
  const int sms = smCount(), sharedBytes = 160 << 10;
  CHECK(cudaFuncSetAttribute(smOfClusterBlock, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedBytes));
  CHECK(cudaFuncSetAttribute(smOfClusterBlock, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  unsigned* sm;
  CHECK(cudaMalloc(&sm, sms * sizeof(unsigned)));
  std::vector<unsigned> host(sms);
  for (int size = 2; size <= 16; size++) {
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = size;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    config.blockDim = dim3(32);
    config.dynamicSmemBytes = sharedBytes;
    config.attrs = &cluster;
    config.numAttrs = 1;
    config.gridDim = dim3(size);
    int fit = 0;
    if (cudaOccupancyMaxActiveClusters(&fit, smOfClusterBlock, &config) != cudaSuccess || fit == 0) {
      cudaGetLastError();
      printf("{\"probe\":\"gpcmap\",\"cluster\":%d,\"clustersAtOnce\":0}\n", size);
      continue;
    }
    for (int clusters = fit; clusters >= 1 && clusters > fit - 3; clusters--) {
      config.gridDim = dim3(size * clusters);
      CHECK(cudaMemset(sm, 0xff, sms * sizeof(unsigned)));
      CHECK(cudaLaunchKernelEx(&config, smOfClusterBlock, sm));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(host.data(), sm, size * clusters * sizeof(unsigned), cudaMemcpyDeviceToHost));
      printf("{\"probe\":\"gpcmap\",\"cluster\":%d,\"clustersAtOnce\":%d,\"clusters\":%d,\"sms\":[", size, fit,
             clusters);
      for (int b = 0; b < size * clusters; b++) printf("%s%u", b ? "," : "", host[b]);
      printf("]}\n");
    }
  }
  CHECK(cudaFree(sm));
  return 0;
}

// rothome: the footprint (whole 4 KiB blocks) mapped to its homes ROTHOME_HOME_MAP.bytes at a time by
// the listed SMs (one partition's; the first is the probe SM), then streamRotatingByHome over it,
// passes = total / footprint rounded, three timed launches after an untimed one. `walk`: `home` (each
// partition its own blocks), `far` (each the other's), `oneway` (the listed partition the other's, the
// other none) or `mixed` (no map: every warp every block, one grid). A mapped walk's line carries the
// map, a bit per block (1: homed in the listed partition), as hex, first block first; `bytes` is what
// the walk read (half the footprint's passes for `oneway`).
static int runRotatingByHome(double footprintMiB, size_t totalMiB, const char* list, const char* walk) {
  const int sms = smCount(), gridBlocks = sms * 8, threads = 256;
  const bool oneway = strcmp(walk, "oneway") == 0, far = oneway || strcmp(walk, "far") == 0,
             mapped = far || strcmp(walk, "home") == 0;
  const size_t blockCount = size_t(footprintMiB * (1 << 20) / HOME_BLOCK_BYTES);
  std::vector<unsigned char> use(sms, 0);
  const int listed = parseSmList(list, use);
  if (listed < 0) return 2;
  if ((!mapped && strcmp(walk, "mixed") != 0) || blockCount == 0 || listed == 0 || listed == sms || totalMiB == 0) {
    fprintf(stderr, "l2Partitions: rothome %g MiB over %zu MiB, %d of %d SMs listed, walk %s: give at least 4 KiB, a "
            "total, one partition's SMs and home, far, oneway or mixed\n", footprintMiB, totalMiB, listed, sms, walk);
    return 2;
  }
  const size_t mapElems = ROTHOME_HOME_MAP.bytes / sizeof(uint4), footprint = blockCount * HOME_BLOCK_BYTES;
  const size_t slices = (footprint + ROTHOME_HOME_MAP.bytes - 1) / ROTHOME_HOME_MAP.bytes;
  const unsigned passes = unsigned(std::max(1.0, std::round(double(totalMiB) / footprintMiB)));
  uint4* buf;
  unsigned char *deviceUse, *deviceInPartition;
  unsigned *sink, *tickets, *deviceBlocks;
  CHECK(cudaMalloc(&buf, slices * ROTHOME_HOME_MAP.bytes));
  CHECK(cudaMalloc(&deviceUse, sms));
  CHECK(cudaMalloc(&deviceInPartition, sms));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMalloc(&tickets, 2 * sizeof(unsigned)));
  CHECK(cudaMalloc(&deviceBlocks, blockCount * sizeof(unsigned)));
  CHECK(cudaMemset(buf, 0, slices * ROTHOME_HOME_MAP.bytes));
  CHECK(cudaMemcpy(deviceUse, use.data(), sms, cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetAttribute(lineTimes, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(ROTHOME_HOME_MAP.bytes / 128 / 2)));
  // The listed SMs are partition 0, the rest partition 1; `mixed` puts every SM in partition 0.
  std::vector<unsigned char> inPartition(sms, 0);
  std::vector<unsigned> lists[2];
  size_t unknown = 0;
  if (mapped) {
    const int probeSm = int(std::find(use.begin(), use.end(), 1) - use.begin());
    for (int sm = 0; sm < sms; sm++) inPartition[sm] = !use[sm];
    for (size_t slice = 0; slice < slices; slice++) {
      size_t sliceUnknown = 0;
      const std::vector<unsigned char> homes =
          homesOfBlocks(buf + slice * mapElems, gridBlocks, threads, deviceUse, unsigned(listed * 8), tickets, sink,
                        probeSm, &sliceUnknown, ROTHOME_HOME_MAP);
      unknown += sliceUnknown;
      for (size_t b = 0; b < homes.size(); b++) {
        const size_t block = slice * homes.size() + b;
        if (block < blockCount) lists[!homes[b]].push_back(unsigned(block));
      }
    }
  } else {
    for (size_t block = 0; block < blockCount; block++) lists[0].push_back(unsigned(block));
  }
  // The map's bits before `far` swaps the lists: lists[0] is the listed partition's home blocks.
  std::vector<unsigned char> nibbles((blockCount + 3) / 4, 0);
  for (unsigned block : lists[0]) nibbles[block / 4] |= 1 << (block % 4);
  if (far) std::swap(lists[0], lists[1]);
  if (oneway) lists[1].clear();
  std::vector<unsigned> blocks(lists[0]);
  blocks.insert(blocks.end(), lists[1].begin(), lists[1].end());
  CHECK(cudaMemcpy(deviceBlocks, blocks.data(), blocks.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deviceInPartition, inPartition.data(), sms, cudaMemcpyHostToDevice));
  const uint2 blockCounts = make_uint2(unsigned(lists[0].size()), unsigned(lists[1].size()));
  const uint2 warpCounts =
      mapped ? make_uint2(unsigned(listed * 64), unsigned((sms - listed) * 64)) : make_uint2(unsigned(sms * 64), 0u);
  const double ms = medianMs(3, [&] {
    CHECK(cudaMemsetAsync(tickets, 0, 2 * sizeof(unsigned)));
    streamRotatingByHome<<<gridBlocks, threads>>>(buf, deviceBlocks, blockCounts, deviceInPartition, warpCounts,
                                                  passes, tickets, sink);
  });
  const double bytes = double(blocks.size()) * HOME_BLOCK_BYTES * passes;
  printf("{\"probe\":\"rothome\",\"walk\":\"%s\",\"footprintBytes\":%zu,\"passes\":%u,\"bytes\":%.0f,"
         "\"partitionSms\":[%d,%d],\"partitionBlocks\":[%u,%u],\"unknownBlocksOfMap\":%zu,\"medianMs\":%.4f,"
         "\"GBps\":%.1f",
         walk, footprint, passes, bytes, listed, sms - listed, blockCounts.x, blockCounts.y, unknown, ms,
         bytes / ms / 1e6);
  if (mapped) {
    printf(",\"homes\":\"");
    for (unsigned char nibble : nibbles) printf("%x", nibble);
    printf("\"");
  }
  printf("}\n");
  CHECK(cudaFree(buf));
  CHECK(cudaFree(deviceUse));
  CHECK(cudaFree(deviceInPartition));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(tickets));
  CHECK(cudaFree(deviceBlocks));
  return 0;
}

int main(int argc, char** argv) {
  const char* probe = argc > 1 ? argv[1] : "";
  if (strcmp(probe, "stream") == 0 && argc >= 4)
    return runStream(strtod(argv[2], nullptr), argv[3], argc > 4 ? strtoull(argv[4], nullptr, 10) : 2048,
                     argc > 5 ? atoi(argv[5]) : 8, argc > 6 ? atoi(argv[6]) : 256, argc > 7 ? atoi(argv[7]) : 4,
                     argc > 8 ? argv[8] : "cg");
  if (strcmp(probe, "chase") == 0 && argc >= 3)
    return runChase(strtoull(argv[2], nullptr, 10), argc > 3 ? atoi(argv[3]) : 20000);
  if (strcmp(probe, "blockmap") == 0) return runBlockMap(argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : 256);
  if (strcmp(probe, "gather") == 0 && argc >= 3) return runGather(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 128);
  if (strcmp(probe, "smmap") == 0) return runSmMap(argc > 2 ? strtoull(argv[2], nullptr, 10) : 4096);
  if (strcmp(probe, "streamsms") == 0 && argc >= 4)
    return runStreamSms(strtoull(argv[2], nullptr, 10), argv[3], argc > 4 ? strtoull(argv[4], nullptr, 10) : 2048,
                        argc > 5 ? argv[5] : nullptr);
  if (strcmp(probe, "smstream") == 0 && argc >= 7)
    return runStreamSms(strtoull(argv[2], nullptr, 10), argv[3], argc > 7 ? strtoull(argv[7], nullptr, 10) : 2048,
                        nullptr, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]));
  if (strcmp(probe, "smdepth") == 0 && argc >= 7)
    return runStreamSms(strtoull(argv[2], nullptr, 10), argv[3], argc > 7 ? strtoull(argv[7], nullptr, 10) : 2048,
                        nullptr, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), true, false, false,
                        argc > 8 ? strtoull(argv[8], nullptr, 10) : 0);
  if (strcmp(probe, "smsteps") == 0 && argc >= 7)
    return runStreamSms(strtoull(argv[2], nullptr, 10), argv[3], argc > 7 ? strtoull(argv[7], nullptr, 10) : 2048,
                        nullptr, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), true, false, true,
                        argc > 8 ? strtoull(argv[8], nullptr, 10) : 0);
  if (strcmp(probe, "smconst") == 0 && argc >= 7)
    return runStreamSms(strtoull(argv[2], nullptr, 10), argv[3], argc > 7 ? strtoull(argv[7], nullptr, 10) : 2048,
                        nullptr, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), true, true, false,
                        argc > 8 ? strtoull(argv[8], nullptr, 10) : 0);
  if (strcmp(probe, "streamkeep") == 0 && argc >= 8)
    return runStreamKeep(strtoull(argv[2], nullptr, 10), argv[3], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), argv[7],
                         argc > 8 ? atoi(argv[8]) : 3, argc > 9 ? argv[9] : "fixed",
                         argc > 10 && strcmp(argv[10], "steps") == 0);
  if (strcmp(probe, "gpcmap") == 0) return runGpcMap();
  if (strcmp(probe, "rotsteps") == 0 && argc >= 5)
    return runRotatingSteps(strtoull(argv[2], nullptr, 10), strtoull(argv[3], nullptr, 10), argv[4]);
  if (strcmp(probe, "rotpart") == 0 && argc >= 5)
    return runRotatingByPartition(strtod(argv[2], nullptr), strtoull(argv[3], nullptr, 10), argv[4],
                                  argc > 5 ? unsigned(strtoul(argv[5], nullptr, 10)) : 1u);
  if (strcmp(probe, "rothome") == 0 && argc >= 5)
    return runRotatingByHome(strtod(argv[2], nullptr), strtoull(argv[3], nullptr, 10), argv[4],
                             argc > 5 ? argv[5] : "home");
  fprintf(stderr,
          "usage: l2Partitions stream <footprint MiB> <fixed|rotating|relaunch> [total MiB] [blocks/SM] [threads]\n"
          "                          [in flight 1|2|4|8] [cg|ca]\n"
          "       l2Partitions chase <footprint KiB> [loads]\n"
          "       l2Partitions blockmap [blocks/SM] [threads]\n"
          "       l2Partitions gather <blocks> [threads]\n"
          "       l2Partitions smmap [footprint KiB]\n"
          "       l2Partitions streamsms <footprint MiB> <SM list> [total MiB] [warps CSV]\n"
          "       l2Partitions smstream <footprint MiB> <SM list> <blocks/SM> <threads> <in flight 1|2|4|8> [total MiB]\n"
          "       l2Partitions smdepth <footprint MiB> <SM list> <blocks/SM> <threads> <in flight 1|2|4|8|12|16>\n"
          "                            [total MiB] [spacing B]\n"
          "       l2Partitions smsteps <footprint MiB> <SM list> <blocks/SM> <threads> <in flight 1|2|4|8> [total MiB]\n"
          "                            [spacing B]\n"
          "       l2Partitions smconst <footprint MiB> <SM list> <blocks/SM> <threads> <in flight 1|2|4|8> [total MiB]\n"
          "                            [spacing B]\n"
          "       l2Partitions streamkeep <footprint MiB> <SM list> <passes> <launches> <probe SM> <prefix> [rounds]\n"
          "                               [fixed|natural|split|halves|near|far] [steps]\n"
          "       l2Partitions gpcmap\n"
          "       l2Partitions rotsteps <footprint MiB> <total MiB> <file prefix>\n"
          "       l2Partitions rotpart <footprint MiB> <total MiB> <SM list of one partition> [warps a run 1]\n"
          "       l2Partitions rothome <footprint MiB> <total MiB> <SM list of one partition> [home|far|oneway|mixed]\n");
  return 2;
}
