// The C model's debug messages filtered before SystemC looks them up.
//
// Every cslDebug / cslInfo of the C model (cmod/include/log.h) calls
// sc_report_handler::report with its file name as the message type and a
// verbosity of SC_DEBUG / SC_FULL. SystemC 2.3.4 first looks the type up
// in its list of a few hundred message types (a strcmp each) and only then
// drops the message for its verbosity: on a convolution that lookup was
// about three quarters of the player's run time. This definition, exported
// from the player (the build links it with --export-dynamic-symbol), takes
// the library's place for the C model's calls and drops those messages
// first, exactly as SystemC would, then hands every other report to
// SystemC's own function.
#include <systemc.h>

#include <dlfcn.h>

namespace sc_core {

void sc_report_handler::report(sc_severity severity, const char *msgType, const char *msg,
                               int verbosity, const char *file, int line) {
  if (severity == SC_INFO && verbosity > get_verbosity_level())
    return;
  using Report = void (*)(sc_severity, const char *, const char *, int, const char *, int);
  static const Report next = reinterpret_cast<Report>(
      dlsym(RTLD_NEXT, "_ZN7sc_core17sc_report_handler6reportENS_11sc_severityEPKcS3_iS3_i"));
  if (!next) {
    std::fprintf(stderr, "nvdla-trace-player: SystemC's sc_report_handler::report not found\n");
    std::exit(1);
  }
  next(severity, msgType, msg, verbosity, file, line);
}

} // namespace sc_core
