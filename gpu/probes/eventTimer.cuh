// How the probes time their launches: CUDA events around the launch, read once it has finished.
// timedMs(launch) times one call of `launch` (one or several kernel launches); medianMs(runs,
// launch) calls it once untimed (to warm the caches and load the module), then `runs` times, and
// gives the median.
#pragma once
#include <algorithm>
#include <vector>
#include "cudaCheck.cuh"

template <typename Launch>
float timedMs(Launch launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  return ms;
}

template <typename Launch>
double medianMs(int runs, Launch launch) {
  timedMs(launch);
  std::vector<float> times;
  for (int run = 0; run < runs; run++) times.push_back(timedMs(launch));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
