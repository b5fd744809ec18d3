// The SM clock in the first kernels of a CUDA context, after idle periods of 0 to 1000 ms:
// each kernel spins 100000 cycles and divides them by the global timer's nanoseconds.
// On a GPU machine: nvcc -O2 -arch=sm_90 -o /tmp/sm-clock scripts/sm-clock.cu && /tmp/sm-clock
#include <cstdio>
#include <unistd.h>
__global__ void spin(long long cycles, double *mhz) {
  unsigned long long t0, t1;
  long long c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (clock64() - c0 < cycles) {}
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  if (threadIdx.x == 0 && blockIdx.x == 0) *mhz = (double)cycles / (double)(t1 - t0) * 1000.0;
}
int main() {
  double *d, h;
  cudaMalloc(&d, 8);
  for (int idle_ms : {0, 5, 20, 100, 500, 1000}) {
    usleep(idle_ms * 1000);
    printf("after %4d ms idle:", idle_ms);
    for (int k = 0; k < 6; k++) {
      spin<<<132, 32>>>(100000, d);
      cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost);
      printf(" %.0f", h);
    }
    printf(" MHz\n");
  }
}
