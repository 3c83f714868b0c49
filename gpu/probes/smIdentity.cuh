// Which SM a thread runs on, and how many the device has. Shared by the probes that place work by
// SM (l2Partitions.cu, hitsUnderLoad.cu).
#pragma once
#include <cuda_runtime.h>
#include "cudaCheck.cuh"

__device__ __forceinline__ unsigned smId() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

static int smCount() {
  int device = 0, count = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}
