// nvdla-trace-player: replays one of NVIDIA's NVDLA trace tests (a .cfg
// with its memory files) against the C model (libnvdla_cmod.so of one
// configuration: master's nv_small / nv_large, or v1's nv_full with
// NVDLA_V1) and checks the golden CRCs. Exit status 0 when every
// command ran and every check passed. The model writes scratch files into
// the current directory: run it in a scratch directory.
#include "cli.h"
#include "player.h"

#include "NV_nvdla.h"

#include <chrono>
#include <cstdio>
#include <string>

#ifndef NVDLA_OPENDLA_H
#define NVDLA_OPENDLA_H ""
#endif
#ifndef NVDLA_CONFIG
#define NVDLA_CONFIG "?"
#endif

static int usage() {
  std::fprintf(stderr,
               "usage: nvdla-trace-player [-v] [--regs opendla.h] [--dump DIR] TEST.cfg|TEST_DIR\n"
               "  replays an NVDLA trace test on the C model (" NVDLA_CONFIG ")\n"
               "  --regs  register map (default: the one of this build, %s)\n"
               "  --dump  write each check_crc region to DIR/check_<line>.bin\n",
               NVDLA_OPENDLA_H);
  return 2;
}

int sc_main(int argc, char **argv) {
#ifdef NVDLA_V1
  // Linked with the v1 model (nv_full): the project's programs in this
  // format on it (scripts/build-nvdla-cmod-v1.sh).
  if (!nvdla_trace::ensureSignalWriteCheck(argv, "nvdla-trace-player"))
    return 1;
#endif
  // No "Simulation stopped by user": the player stops it.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  nvdla_trace::CommandLine cl;
  cl.regsPath = NVDLA_OPENDLA_H;
  if (!nvdla_trace::parseCommandLine(argc, argv, cl, [](const std::string &name) { return name + ".cfg"; }))
    return usage();
  const std::string &cfg = cl.test, &dir = cl.dir;

  auto start = std::chrono::steady_clock::now();
  try {
    nvdla_trace::RegisterMap regs(cl.regsPath);
    auto *player = new nvdla_trace::Player("player", nvdla_trace::parseTrace(cfg), regs, dir, cl.verbose);
    player->dumpDir = cl.dumpDir;
    auto *nvdla = new scsim::cmod::NV_nvdla("nvdla", 0);
    sc_core::sc_signal<bool, sc_core::SC_UNCHECKED_WRITERS> intr("intr");
    nvdla_trace::bindModel(*nvdla, *player, player->dbb.socket, player->cvsram.socket, intr);

    sc_core::sc_start();

    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool ok = player->finished() && player->failures().empty();
    for (const std::string &f : player->failures())
      std::fprintf(stderr, "nvdla-trace-player: %s: %s\n", cfg.c_str(), f.c_str());
    if (!player->finished() && player->failures().empty())
      std::fprintf(stderr, "nvdla-trace-player: %s: the model stopped while the trace waited for %s\n",
                   cfg.c_str(), player->blockedOn().empty() ? "?" : player->blockedOn().c_str());
    uint64_t uninit = player->dbb.uninitializedReads() + player->cvsram.uninitializedReads();
    std::printf("%s: %s (%s, %d CRC checks, %.1f s, simulated %s%s)\n", ok ? "PASS" : "FAIL",
                cfg.c_str(), NVDLA_CONFIG, player->crcChecks(), seconds,
                sc_core::sc_time_stamp().to_string().c_str(),
                uninit ? (", " + std::to_string(uninit) + " reads of unwritten bytes").c_str() : "");
    return ok ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "nvdla-trace-player: %s: %s\n", cfg.c_str(), e.what());
    return 1;
  }
}
