// The SM's cycle counter as a timed load needs it: the asm is volatile with a memory clobber, so
// the compiler keeps it after the store that waits for the load before it. Shared by the probes
// that time single loads (l2Replacement.cu, l2Partitions.cu streamkeep); clockAfter(value) is read
// only once `value` is computed (its input), for a step whose loads end in that value. The GPU's
// nanosecond timer (%globaltimer) the same two ways, for the probes that set SM cycles against time.
#pragma once

__device__ __forceinline__ long long clockNow() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ long long clockAfter(unsigned after) {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(after) : "memory");
  return t;
}

__device__ __forceinline__ unsigned long long globalNsNow() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned long long globalNsAfter(unsigned after) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(after) : "memory");
  return t;
}
