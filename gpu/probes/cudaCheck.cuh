// CHECK(call): a failed CUDA runtime call ends the probe with its error and where it was made,
// so a probe never prints a figure after a failure. Shared by every probe in this folder.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                         \
  do {                                                                                      \
    cudaError_t status_ = (call);                                                           \
    if (status_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_));      \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)
