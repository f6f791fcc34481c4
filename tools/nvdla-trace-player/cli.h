// What the two players' command lines share (main.cpp: master's .cfg
// traces; v1/main.cpp: v1's input.txn traces): the options, and the test
// given as a directory or a file.
#ifndef NVDLA_TRACE_PLAYER_CLI_H
#define NVDLA_TRACE_PLAYER_CLI_H

#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace nvdla_trace {

struct CommandLine {
  bool verbose = false;
  std::string regsPath, dumpDir;
  std::string test; // the trace file
  std::string dir;  // the folder its memory files are read from
};

// [-v] [--regs FILE] [--dump DIR] TEST. A directory TEST names
// TEST/traceFile(TEST's name). False on a usage error.
template <class TraceFile>
bool parseCommandLine(int argc, char **argv, CommandLine &cl, TraceFile traceFile) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-v"))
      cl.verbose = true;
    else if (!std::strcmp(argv[i], "--regs") && i + 1 < argc)
      cl.regsPath = argv[++i];
    else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc)
      cl.dumpDir = argv[++i];
    else if (argv[i][0] == '-' || !cl.test.empty())
      return false;
    else
      cl.test = argv[i];
  }
  if (cl.test.empty())
    return false;
  struct stat st;
  if (stat(cl.test.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    while (cl.test.size() > 1 && cl.test.back() == '/')
      cl.test.pop_back();
    cl.test += "/" + traceFile(cl.test.substr(cl.test.find_last_of('/') + 1));
  }
  size_t slash = cl.test.find_last_of('/');
  cl.dir = slash == std::string::npos ? "." : cl.test.substr(0, slash);
  return true;
}

// The v1 model (nv_full): without SC_SIGNAL_WRITE_CHECK=CONFLICT SystemC
// 2.3.4 stops every BDMA layer with E115 (nvdla.nvdla_core.bdma.signal_2 has
// two drivers; ../shared/nvdla-hw-v1/BUILDING.md). SystemC reads it before
// sc_main: when it is not set, the program sets it and runs itself again.
// Returns only when it is set (or the re-run failed: false).
inline bool ensureSignalWriteCheck(char **argv, const char *program) {
  if (std::getenv("SC_SIGNAL_WRITE_CHECK"))
    return true;
  setenv("SC_SIGNAL_WRITE_CHECK", "CONFLICT", 1);
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "%s: cannot run itself again with SC_SIGNAL_WRITE_CHECK=CONFLICT: %s\n", program,
               std::strerror(errno));
  return false;
}

// NV_nvdla (master's or v1's: the same ports) bound to a player: its CSB
// initiator, the memories behind both AXI sockets, the interrupt line
// (several model processes drive it, all writing true: unchecked writers).
template <class Nvdla, class Player, class Dbb, class Cvsram, class Signal>
void bindModel(Nvdla &nvdla, Player &player, Dbb &dbb, Cvsram &cvsram, Signal &intr) {
  player.csb.bind(nvdla.nvdla_host_master_if);
  nvdla.nvdla_core2dbb_axi4.bind(dbb);
  nvdla.nvdla_core2cvsram_axi4.bind(cvsram);
  nvdla.nvdla_intr(intr);
  player.intr(intr);
}

} // namespace nvdla_trace

#endif
