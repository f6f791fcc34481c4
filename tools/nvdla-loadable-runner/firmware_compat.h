/* Forced include (-include) for NVIDIA's NVDLA firmware (kmd/firmware)
 * compiled as user-space C: what the Linux kernel headers supply in the
 * kernel build. Nothing of NVIDIA's is changed (../shared/nvdla-sw/BUILDING.md). */
#ifndef DLA_LOADABLE_FIRMWARE_COMPAT_H
#define DLA_LOADABLE_FIRMWARE_COMPAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#define __packed __attribute__((packed))
#define __aligned(n) __attribute__((aligned(n)))
#endif
