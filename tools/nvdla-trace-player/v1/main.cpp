// nvdla-trace-player-v1: replays one of NVIDIA's v1 trace tests
// (verif/traces/traceplayer/<test>: input.txn, plusargs.txt, byte files)
// on the v1 C model (nv_full) and compares every dump_mem with its golden
// bytes. Exit status 0 when every command ran and every check passed. The
// model writes scratch files into the current directory: run it in a
// scratch directory.
#include "../cli.h"
#include "player.h"

#include "NV_nvdla.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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
  if (!nvdla_trace::ensureSignalWriteCheck(argv, "nvdla-trace-player-v1"))
    return 1;
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  nvdla_trace::CommandLine cl;
  cl.regsPath = NVDLA_ARNVDLA_H;
  if (!nvdla_trace::parseCommandLine(argc, argv, cl, [](const std::string &) -> std::string { return "input.txn"; }))
    return usage();
  const std::string &txn = cl.test, &dir = cl.dir;

  auto start = std::chrono::steady_clock::now();
  try {
    using namespace nvdla_trace;
    RegisterMap regs(cl.regsPath);
    auto *player = new v1::Player("player", v1::parseTxn(txn), v1::parsePlusArgs(dir + "/plusargs.txt"), regs,
                                  dir, cl.verbose);
    player->dumpDir = cl.dumpDir;
    auto *nvdla = new scsim::cmod::NV_nvdla("nvdla", 0);
    sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> intr("intr");
    bindModel(*nvdla, *player, player->memory.socket, player->cvsram.socket, intr);

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
