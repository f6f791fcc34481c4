// nvdla-trace-player-v1: replays one of NVIDIA's v1 trace tests
// (verif/traces/traceplayer/<test>: input.txn, plusargs.txt, byte files)
// on the v1 C model (nv_full) and compares every dump_mem with its golden
// bytes. Exit status 0 when every command ran and every check passed. The
// model writes scratch files into the current directory: run it in a
// scratch directory.
#include "player.h"

#include "NV_nvdla.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NVDLA_ARNVDLA_H
#define NVDLA_ARNVDLA_H ""
#endif

static int usage() {
  std::fprintf(stderr,
               "usage: nvdla-trace-player-v1 [-v] [--regs arnvdla.h] [--dump DIR] TEST_DIR|input.txn\n"
               "  replays a v1 trace test on the v1 C model (nv_full)\n"
               "  --regs  register map (default: the model's, %s)\n"
               "  --dump  write each dump_mem region to DIR/dump_<line>.bin\n",
               NVDLA_ARNVDLA_H);
  return 2;
}

int sc_main(int argc, char **argv) {
  // BUILDING.md: without it SystemC 2.3.4 stops every BDMA layer with E115
  // (nvdla.nvdla_core.bdma.signal_2 has two drivers). SystemC reads it
  // before sc_main: set, the player runs itself again.
  if (!std::getenv("SC_SIGNAL_WRITE_CHECK")) {
    setenv("SC_SIGNAL_WRITE_CHECK", "CONFLICT", 1);
    execv("/proc/self/exe", argv);
    std::perror("nvdla-trace-player-v1: cannot run itself again with SC_SIGNAL_WRITE_CHECK=CONFLICT");
    return 1;
  }
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  std::string regsPath = NVDLA_ARNVDLA_H, txn, dumpDir;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-v"))
      verbose = true;
    else if (!std::strcmp(argv[i], "--regs") && i + 1 < argc)
      regsPath = argv[++i];
    else if (!std::strcmp(argv[i], "--dump") && i + 1 < argc)
      dumpDir = argv[++i];
    else if (argv[i][0] == '-' || !txn.empty())
      return usage();
    else
      txn = argv[i];
  }
  if (txn.empty())
    return usage();
  struct stat st;
  if (stat(txn.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    txn += "/input.txn";
  std::string dir = txn.find('/') == std::string::npos ? "." : txn.substr(0, txn.find_last_of('/'));

  auto start = std::chrono::steady_clock::now();
  try {
    using namespace nvdla_trace;
    RegisterMap regs(regsPath);
    auto *player = new v1::Player("player", v1::parseTxn(txn), v1::parsePlusArgs(dir + "/plusargs.txt"), regs,
                                  dir, verbose);
    player->dumpDir = dumpDir;
    auto *nvdla = new scsim::cmod::NV_nvdla("nvdla", 0);
    // Several model processes drive the interrupt line (all write true).
    sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> intr("intr");
    player->csb.bind(nvdla->nvdla_host_master_if);
    nvdla->nvdla_core2dbb_axi4.bind(player->memory.socket);
    nvdla->nvdla_core2cvsram_axi4.bind(player->cvsram.socket);
    nvdla->nvdla_intr(intr);
    player->intr(intr);

    sc_core::sc_start();

    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool ok = player->finished() && player->failures().empty();
    for (const std::string &f : player->failures())
      std::fprintf(stderr, "nvdla-trace-player-v1: %s: %s\n", txn.c_str(), f.c_str());
    const v1::ReplayCounts &n = player->counts();
    std::printf("%s: %s (nv_full, %d dump_mem of %llu bytes, %d read_reg checks (%d skipped as model timing), "
                "%.1f s, simulated %s)\n",
                ok ? "PASS" : "FAIL", txn.c_str(), n.dumps, (unsigned long long)n.dumpBytes,
                n.regChecks + n.skipped, n.skipped, seconds, sc_core::sc_time_stamp().to_string().c_str());
    return ok ? 0 : 1;
  } catch (const std::exception &e) {
    std::string what = e.what(); // "input.txn:3: ..." names the file itself
    if (what.compare(0, txn.size() + 1, txn + ":") == 0)
      std::fprintf(stderr, "nvdla-trace-player-v1: %s\n", what.c_str());
    else
      std::fprintf(stderr, "nvdla-trace-player-v1: %s: %s\n", txn.c_str(), what.c_str());
    return 1;
  }
}
