// Forced include (g++ -include) for NVIDIA's compiler (nvdla/sw
// umd/core/src/compiler), written against protobuf 2.6, built with Debian's
// protobuf 3.21 by scripts/build-nvdla-compiler.sh. NVIDIA's sources are not
// changed; what differs between the two protobuf versions is bridged here.
#ifndef DLA_NVDLA_COMPILER_PROTOBUF_COMPAT_H
#define DLA_NVDLA_COMPILER_PROTOBUF_COMPAT_H

#include <google/protobuf/io/coded_stream.h>

// protobuf 3.x dropped the second argument of
// CodedInputStream::SetTotalBytesLimit (the warning threshold);
// caffe/CaffeParser.cpp calls SetTotalBytesLimit(int(bufSize), -1).
#define SetTotalBytesLimit(total_bytes_limit, warning_threshold) SetTotalBytesLimit(total_bytes_limit)

#endif
