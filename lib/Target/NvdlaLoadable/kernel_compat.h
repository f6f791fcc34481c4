/* Forced include (-include) for NVIDIA's kmd/firmware/include headers
 * compiled into the loadable writer (FirmwareDescriptors.cpp): the kernel
 * macros the firmware's Linux build supplies, as
 * tools/nvdla-loadable-runner/firmware_compat.h supplies them to the
 * firmware itself. Nothing of NVIDIA's is changed. */
#ifndef DLA_LOADABLE_KERNEL_COMPAT_H
#define DLA_LOADABLE_KERNEL_COMPAT_H
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#define __packed __attribute__((packed))
#define __aligned(n) __attribute__((aligned(n)))
#endif
