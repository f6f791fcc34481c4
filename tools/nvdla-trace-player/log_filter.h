// Forced into every source of NVIDIA's C models (-include, by
// scripts/build-nvdla-cmod.sh and build-nvdla-cmod-v1.sh); their sources
// stay unpatched.
//
// The models' cslDebug / cslInfo (cmod/include/log.h) format each message
// with two snprintf calls before SC_REPORT_INFO_VERB hands it to SystemC,
// which drops it unless the verbosity level admits SC_DEBUG / SC_FULL.
// With report_filter.cpp dropping them early, that formatting was still
// about 85% of a loadable's run on the nv_small model (perf). These are the
// models' own macros with the same verbosity test SystemC applies, made
// before the formatting: a message the level admits is formatted and
// reported exactly as before; one it drops is never formatted.
#ifndef DLA_NVDLA_CMOD_LOG_FILTER_H
#define DLA_NVDLA_CMOD_LOG_FILTER_H

#include "log.h" // the model's own (its include path), guarded

#undef cslDebugInternal
#define cslDebugInternal(lvl, ...)                                                    \
  do {                                                                                \
    if (::sc_core::SC_DEBUG <= ::sc_core::sc_report_handler::get_verbosity_level()) { \
      char msg_buf[MSG_BUF_SIZE];                                                     \
      int pos = snprintf(msg_buf, MSG_BUF_SIZE, "%d:", __LINE__);                     \
      snprintf(msg_buf + pos, MSG_BUF_SIZE - pos, __VA_ARGS__);                       \
      SC_REPORT_INFO_VERB(__FILENAME__, msg_buf, SC_DEBUG);                           \
    }                                                                                 \
  } while (0)

#undef cslInfoInternal
#define cslInfoInternal(...)                                                         \
  do {                                                                               \
    if (::sc_core::SC_FULL <= ::sc_core::sc_report_handler::get_verbosity_level()) { \
      char msg_buf[MSG_BUF_SIZE];                                                    \
      int pos = snprintf(msg_buf, MSG_BUF_SIZE, "%d:", __LINE__);                    \
      snprintf(msg_buf + pos, MSG_BUF_SIZE - pos, __VA_ARGS__);                      \
      SC_REPORT_INFO_VERB(__FILENAME__, msg_buf, SC_FULL);                           \
    }                                                                                \
  } while (0)

#endif
