// The rate at which an SM takes Flash-LLM's scattered 16-bit shared-memory stores
// (gpu/probes/README.md; the open question of docs/system-model.md, "Flash-LLM on H200").
//
// The model's Flash-LLM is 1.3–1.8× faster than the H200 harness measures. What is missing is
// ≈ 185–230 cycles per staged vector of a block's warp 0 at two blocks per SM and ≈ 235–325 at
// three: ≈ 6 cycles per warp STS.U16 if the SM's shared-memory store path is what the extract
// waits for. No source gives that rate. This program replays the extract alone: each block of 4
// warps (Flash-LLM's 128 threads) holds the items of two random 128 × 64 tiles at the given
// sparsity in registers, dealt to threads as the kernel deals them (vector v to thread v mod 128,
// step v / 128; tile 2 staged for 8 steps as the sm_90 binary stages it), and writes them to
// shared memory with one st.shared.u16 per item, rep after rep with a barrier between reps, at
// the kernel's shared-memory footprint so that 1, 2 or 3 blocks share an SM as in the harness.
//   order  balanced  each warp instruction's items spread over the 32 banks, as the harness's
//                    encoder (InitSparseMatrixA_API) deals them;
//          scan      items in the tile's row-major order (more bank conflicts).
//   width  16        st.shared.u16 of each item, as the kernel stores it;
//          32        st.shared.u32 of the 4-byte word holding it: the same banks and lanes, a whole
//                    word. A 16-bit store much slower than the 32-bit one points at the partial
//                    write (a read-modify-write of the word, as ECC-protected SRAM needs), not at
//                    the MIO's instruction rate.
//
//   ldsm   0         the extract alone;
//          L         each warp first reads its 32 rows of the tile with L ldmatrix.x4 (Flash-LLM's
//                    MMAs read theirs with 20 a warp and iteration, before the extract), as the
//                    kernel's rows are laid out (the bank permutation): two blocks' extracts then
//                    share the MIO queue with each other's LDSM, as in the harness's loop.
//
// Build: nvcc -O3 -gencode arch=compute_90,code=sm_90 -o stsScatter stsScatter.cu
// Run:   ./stsScatter <sparsity %> <blocks per SM 1..3> [balanced|scan] [16|32] [reps 2000] [ldsm 0]
// Prints one JSON line: cycles per rep (median over blocks), the warp STS instructions one rep
// issues on an SM, and their ratio — the SM's cycles per scattered STS.U16 under that load.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <random>
#include <vector>
#include <cuda_runtime.h>
#include "cudaCheck.cuh"

constexpr int THREADS = 128, TILE_ROWS = 128, TILE_K = 64, VECTOR = 4;
constexpr int STEPS_TILE1 = 16, STEPS_TILE2 = 8;  // as the compiled kernel stages them
// Flash-LLM's dynamic shared memory per block at N = 8: (256·64 + 16·64) halves × 2 buffers.
constexpr int KERNEL_SHARED_BYTES = (256 * 64 + 16 * 64) * 2 * 2;

template <int WIDTH>
__device__ __forceinline__ void storeItem(unsigned sharedBase, uint32_t item) {
  if (WIDTH == 16) {
    const unsigned address = sharedBase + 2u * (item >> 16);
    const unsigned short value = item & 0xffffu;
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "h"(value));
  } else {
    const unsigned address = sharedBase + 4u * (item >> 17);
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(item));
  }
}

// A warp's `count` ldmatrix.x4 over its 32 rows of the tile at `base` (row-major, 64 halves a row,
// each 8-half chunk at column chunk ^ row mod 8, as the kernel lays its tile out), folded into one
// word so that none is dropped.
__device__ __forceinline__ uint32_t readFragments(unsigned base, int count) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t folded = 0;
  for (int i = 0; i < count; i++) {
    const int row = warp * 32 + (i % 4) * 8 + (lane & 7);
    const int chunk = ((lane >> 3) + 4 * (i / 4)) & 7;
    const unsigned address = base + 2u * unsigned(row * TILE_K + 8 * (chunk ^ (row & 7)));
    uint32_t a, b, c, d;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "r"(address));
    folded ^= a ^ b ^ c ^ d;
  }
  return folded;
}

// items: per tile, per thread, its steps' vectors (4 items each), 0-padded; counts: steps per thread.
template <int WIDTH>
__global__ void __launch_bounds__(THREADS, 3) extract(const uint32_t* items1, const uint32_t* items2, const int* steps1, const int* steps2,
                        int reps, int ldsm, long long* cycles) {
  extern __shared__ __align__(128) unsigned char smem[];
  const int t = threadIdx.x;
  uint32_t r1[STEPS_TILE1 * VECTOR], r2[STEPS_TILE2 * VECTOR];
  const int n1 = steps1[t], n2 = steps2[t];
#pragma unroll
  for (int i = 0; i < STEPS_TILE1 * VECTOR; i++) r1[i] = items1[t * STEPS_TILE1 * VECTOR + i];
#pragma unroll
  for (int i = 0; i < STEPS_TILE2 * VECTOR; i++) r2[i] = items2[t * STEPS_TILE2 * VECTOR + i];
  const unsigned base1 = unsigned(__cvta_generic_to_shared(smem));
  const unsigned base2 = base1 + TILE_ROWS * TILE_K * 2;
  __syncthreads();
  uint32_t folded = 0;
  const long long t0 = clock64();
  for (int rep = 0; rep < reps; rep++) {
    folded ^= readFragments(base1, ldsm);
    // Opaque each rep, so the addresses are computed per item as the kernel computes them, not
    // hoisted out of the rep loop into 96 more registers.
#pragma unroll
    for (int i = 0; i < STEPS_TILE1 * VECTOR; i++) asm volatile("" : "+r"(r1[i]));
#pragma unroll
    for (int i = 0; i < STEPS_TILE2 * VECTOR; i++) asm volatile("" : "+r"(r2[i]));
#pragma unroll
    for (int i = 0; i < STEPS_TILE1; i++) {
      if (i >= max(n1, n2)) break;
      if (i < n1) {
#pragma unroll
        for (int j = 0; j < VECTOR; j++) storeItem<WIDTH>(base1, r1[i * VECTOR + j]);
      }
      if (i < STEPS_TILE2 && i < n2) {
#pragma unroll
        for (int j = 0; j < VECTOR; j++) storeItem<WIDTH>(base2, r2[(i < STEPS_TILE2 ? i : 0) * VECTOR + j]);
      }
    }
    __syncthreads();
  }
  const long long t1 = clock64();
  if (t == 0) cycles[blockIdx.x] = t1 - t0;
  if (folded == 0x9e3779b9u) cycles[blockIdx.x] = -1;  // keeps the fragments' reads alive
}

struct Tile {
  std::vector<uint32_t> items;  // per thread × steps × 4
  std::vector<int> steps;       // per thread
  int warpStores = 0;           // warp STS instructions of the fullest lane of each warp, summed over warps
};

// A random 128 × 64 tile at `sparsity`, encoded as Flash-LLM's items (value | location << 16), padded
// to whole vectors, ordered, and dealt to the block's threads.
static Tile makeTile(double sparsity, bool balanced, int maxSteps, std::mt19937& random) {
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<std::vector<uint32_t>> byBank(32);
  for (int row = 0; row < TILE_ROWS; row++)
    for (int col = 0; col < TILE_K; col++) {
      if (uniform(random) < sparsity) continue;
      const int permuted = col ^ ((row % 8) << 3);  // the harness's bank permutation
      const uint32_t location = uint32_t(row * TILE_K + permuted);
      byBank[(permuted / 2) % 32].push_back(0x3c00u | (location << 16));
    }
  std::vector<uint32_t> ordered;
  if (balanced) {
    // Take from the fullest bank each time, as the encoder's BankID_Maximum does.
    for (;;) {
      int fullest = 0;
      for (int b = 1; b < 32; b++)
        if (byBank[b].size() > byBank[fullest].size()) fullest = b;
      if (byBank[fullest].empty()) break;
      ordered.push_back(byBank[fullest].back());
      byBank[fullest].pop_back();
    }
  } else {
    for (auto& bank : byBank) ordered.insert(ordered.end(), bank.begin(), bank.end());
    std::sort(ordered.begin(), ordered.end(), [](uint32_t a, uint32_t b) { return (a >> 16) < (b >> 16); });
  }
  while (ordered.size() % VECTOR) ordered.push_back(ordered.back());  // padding repeats a store
  Tile tile;
  tile.items.assign(size_t(THREADS) * maxSteps * VECTOR, ordered.empty() ? 0 : ordered[0]);
  tile.steps.assign(THREADS, 0);
  const int vectors = int(ordered.size() / VECTOR);
  for (int v = 0; v < vectors; v++) {
    const int thread = v % THREADS, step = v / THREADS;
    if (step >= maxSteps) continue;  // past the staged steps: the compiled kernel drops them
    for (int j = 0; j < VECTOR; j++)
      tile.items[(size_t(thread) * maxSteps + step) * VECTOR + j] = ordered[size_t(v) * VECTOR + j];
    tile.steps[thread] = step + 1;
  }
  for (int warp = 0; warp < THREADS / 32; warp++)
    tile.warpStores += VECTOR * *std::max_element(tile.steps.begin() + warp * 32, tile.steps.begin() + warp * 32 + 32);
  return tile;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: stsScatter <sparsity %%> <blocks per SM 1..3> [balanced|scan] [16|32] [reps] [ldsm]\n");
    return 2;
  }
  const double sparsity = atof(argv[1]) / 100;
  const int blocksPerSm = atoi(argv[2]);
  const bool balanced = argc <= 3 || strcmp(argv[3], "scan") != 0;
  const int width = argc > 4 ? atoi(argv[4]) : 16;
  const int reps = argc > 5 ? atoi(argv[5]) : 2000;
  const int ldsm = argc > 6 ? atoi(argv[6]) : 0;
  if (!(sparsity >= 0 && sparsity < 1) || blocksPerSm < 1 || blocksPerSm > 3 || (width != 16 && width != 32) ||
      reps < 1 || ldsm < 0 || ldsm > 64) {
    fprintf(stderr, "stsScatter: give a sparsity 0–99 %%, 1–3 blocks per SM, a width of 16 or 32, a positive rep count and 0–64 ldmatrix a warp\n");
    return 2;
  }
  const auto kernel = width == 16 ? extract<16> : extract<32>;
  std::mt19937 random(1);
  const Tile tile1 = makeTile(sparsity, balanced, STEPS_TILE1, random);
  const Tile tile2 = makeTile(sparsity, balanced, STEPS_TILE2, random);
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, KERNEL_SHARED_BYTES));
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, THREADS, KERNEL_SHARED_BYTES));
  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int blocks = sms * blocksPerSm;
  uint32_t *items1, *items2;
  int *steps1, *steps2;
  long long* cycles;
  CHECK(cudaMalloc(&items1, tile1.items.size() * 4));
  CHECK(cudaMalloc(&items2, tile2.items.size() * 4));
  CHECK(cudaMalloc(&steps1, THREADS * sizeof(int)));
  CHECK(cudaMalloc(&steps2, THREADS * sizeof(int)));
  CHECK(cudaMalloc(&cycles, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(items1, tile1.items.data(), tile1.items.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(items2, tile2.items.data(), tile2.items.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(steps1, tile1.steps.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(steps2, tile2.steps.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice));
  kernel<<<blocks, THREADS, KERNEL_SHARED_BYTES>>>(items1, items2, steps1, steps2, 1, ldsm, cycles);  // warm-up
  kernel<<<blocks, THREADS, KERNEL_SHARED_BYTES>>>(items1, items2, steps1, steps2, reps, ldsm, cycles);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::vector<long long> perBlock(blocks);
  CHECK(cudaMemcpy(perBlock.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  std::sort(perBlock.begin(), perBlock.end());
  const double perRep = double(perBlock[blocks / 2]) / reps;
  const int smStores = blocksPerSm * (tile1.warpStores + tile2.warpStores);
  printf("{\"probe\":\"stsScatter\",\"sparsity\":%.2f,\"order\":\"%s\",\"width\":%d,\"blocksPerSm\":%d,\"residentBlocksPerSm\":%d,"
         "\"reps\":%d,\"ldsmPerWarp\":%d,\"cyclesPerRep\":%.1f,\"warpStoresPerRepPerSm\":%d,\"cyclesPerStorePerSm\":%.2f,"
         "\"warp0StepsPerRep\":%d}\n",
         sparsity, balanced ? "balanced" : "scan", width, blocksPerSm, resident, reps, ldsm, perRep, smStores, perRep / smStores,
         *std::max_element(tile1.steps.begin(), tile1.steps.begin() + 32) +
             *std::max_element(tile2.steps.begin(), tile2.steps.begin() + 32));
  return resident < blocksPerSm ? 3 : 0;  // fewer resident blocks than asked: the figure is not the harness's
}
