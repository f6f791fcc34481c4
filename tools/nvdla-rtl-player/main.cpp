// nvdla-rtl-player: replays one NVDLA trace test (a .cfg with its memory
// files: NVIDIA's nv_small traces, dla-translate --dla-to-nvdla-trace's
// programs) on NVIDIA's nv_small RTL under Verilator, checks its golden
// CRCs as tools/nvdla-trace-player does on the C model, and reports the
// cycles of each hardware layer under the stated memory model, as text and
// (--json) as JSON. Exit status 0 when every command ran and every check
// passed; 1 on a failure or a timeout; 2 on a usage error.
#include "player.h"

#include "../nvdla-trace-player/cli.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#ifndef NVDLA_OPENDLA_H
#define NVDLA_OPENDLA_H ""
#endif

static int usage() {
  std::fprintf(stderr,
               "usage: nvdla-rtl-player [-v] [--regs opendla.h] [--json FILE] [--latency N] [--bandwidth B]\n"
               "                        [--max-cycles N] [--timeout SECONDS] TEST.cfg|TEST_DIR\n"
               "  replays an NVDLA trace test on nv_small's RTL (Verilator)\n"
               "  --json        write the result and the cycles per layer to FILE\n"
               "  --latency     memory latency in cycles (default 32)\n"
               "  --bandwidth   memory bandwidth in bytes per cycle, reads and writes together (default 8)\n"
               "  --max-cycles  fail after N cycles (default 200000000)\n"
               "  --timeout     fail after SECONDS of wall-clock time (default 3600)\n"
               "  --regs        register map (default: %s)\n",
               NVDLA_OPENDLA_H);
  return 2;
}

static std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\', out += c;
    else if ((unsigned char)c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else
      out += c;
  }
  return out + "\"";
}

static bool number(const char *text, double &value, double min) {
  char *end = nullptr;
  value = std::strtod(text, &end);
  return *text && !*end && value >= min;
}

int main(int argc, char **argv) {
  nvdla_rtl::MemoryTiming timing;
  nvdla_rtl::Limits limits;
  std::string jsonPath;
  // This player's options; the rest are the C-model player's (cli.h).
  std::vector<char *> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string o = argv[i];
    double v;
    if (o == "--json" || o == "--latency" || o == "--bandwidth" || o == "--max-cycles" || o == "--timeout") {
      if (i + 1 >= argc)
        return usage();
      const char *arg = argv[++i];
      if (o == "--json") {
        jsonPath = arg;
        continue;
      }
      if (!number(arg, v, o == "--bandwidth" || o == "--timeout" ? 0.001 : 1)) {
        std::fprintf(stderr, "nvdla-rtl-player: %s: not a valid value: '%s'\n", o.c_str(), arg);
        return 2;
      }
      if (o == "--latency") timing.latency = unsigned(v);
      else if (o == "--bandwidth") timing.bandwidth = v;
      else if (o == "--max-cycles") limits.maxCycles = uint64_t(v);
      else limits.maxSeconds = v;
    } else {
      rest.push_back(argv[i]);
    }
  }
  nvdla_trace::CommandLine cl;
  cl.regsPath = NVDLA_OPENDLA_H;
  if (!nvdla_trace::parseCommandLine(int(rest.size()), rest.data(), cl,
                                     [](const std::string &name) { return name + ".cfg"; }) ||
      !cl.dumpDir.empty())
    return usage();
  const std::string &cfg = cl.test;

  std::vector<nvdla_rtl::Layer> layers;
  std::vector<std::string> failures;
  int checks = 0;
  bool ok = false;
  uint64_t cycles = 0, simulated = 0;
  double seconds = 0;
  nvdla_rtl::MemoryStats stats;
  uint64_t uninit = 0;
  try {
    nvdla_trace::RegisterMap regs(cl.regsPath);
    auto commands = nvdla_trace::parseTrace(cfg);
    auto found = nvdla_rtl::findLayers(commands, cfg);
    nvdla_rtl::Rtl rtl(timing, limits);
    nvdla_rtl::Player player(rtl, std::move(commands), std::move(found), regs, cl.dir, cl.verbose);
    ok = player.run();
    failures = player.failures();
    layers = player.layers();
    checks = player.crcChecks();
    cycles = rtl.cycle();
    simulated = rtl.simulatedCycles();
    seconds = rtl.seconds();
    stats = rtl.memoryStatistics();
    uninit = rtl.dbb.uninitializedReads();
  } catch (const std::exception &e) {
    failures.push_back(e.what());
    ok = false;
  }
  const std::string memory = timing.describe();
  for (const std::string &f : failures)
    std::fprintf(stderr, "nvdla-rtl-player: %s: %s\n", cfg.c_str(), f.c_str());
  for (size_t k = 0; k < layers.size(); ++k) {
    const nvdla_rtl::Layer &l = layers[k];
    if (l.interrupts.empty())
      continue;
    std::string ints;
    for (const auto &e : l.interrupts) {
      auto at = l.raised.find(e.syncId);
      ints += (ints.empty() ? "" : ", ") + e.block + "_" + std::to_string(e.group) + " " +
              (at == l.raised.end() ? std::string("never")
                                    : "+" + std::to_string(at->second - l.lastWrite));
    }
    if (l.raised.size() == l.interrupts.size())
      std::printf("layer %zu: %llu cycles (%s)%s%s [%s]\n", k, (unsigned long long)l.cycles(),
                  ints.c_str(), l.name.empty() ? "" : ": ", l.name.c_str(), memory.c_str());
    else
      std::printf("layer %zu: unfinished (%s)%s%s [%s]\n", k, ints.c_str(), l.name.empty() ? "" : ": ",
                  l.name.c_str(), memory.c_str());
  }
  // The speed over every simulated cycle, the reset's included.
  double rate = seconds > 0 ? simulated / seconds : 0;
  std::printf("%s: %s (nv_small RTL, %d CRC checks, %llu cycles, %.1f s, %.0f cycles/s; %s%s)\n",
              ok ? "PASS" : "FAIL", cfg.c_str(), checks, (unsigned long long)cycles, seconds, rate,
              memory.c_str(), uninit ? (", " + std::to_string(uninit) + " reads of unwritten bytes").c_str() : "");

  if (!jsonPath.empty()) {
    std::ofstream js(jsonPath);
    if (!js) {
      std::fprintf(stderr, "nvdla-rtl-player: cannot write %s\n", jsonPath.c_str());
      return 1;
    }
    js << "{\n  \"trace\": " << jsonString(cfg) << ",\n  \"config\": \"nv_small\",\n  \"simulator\": \"rtl\",\n"
       << "  \"pass\": " << (ok ? "true" : "false") << ",\n  \"crc_checks\": " << checks << ",\n"
       << "  \"memory\": {\"latency_cycles\": " << timing.latency
       << ", \"bandwidth_bytes_per_cycle\": " << timing.bandwidth << ", \"width_bytes\": 8},\n"
       << "  \"cycles\": " << cycles << ",\n  \"simulated_cycles\": " << simulated
       << ",\n  \"wall_seconds\": " << seconds << ",\n"
       << "  \"memory_traffic\": {\"read_beats\": " << stats.readBeats << ", \"write_beats\": " << stats.writeBeats
       << ", \"read_requests\": " << stats.readRequests << ", \"write_requests\": " << stats.writeRequests
       << "},\n  \"failures\": [";
    for (size_t i = 0; i < failures.size(); ++i)
      js << (i ? ", " : "") << jsonString(failures[i]);
    js << "],\n  \"layers\": [";
    bool first = true;
    for (size_t k = 0; k < layers.size(); ++k) {
      const nvdla_rtl::Layer &l = layers[k];
      if (l.interrupts.empty())
        continue;
      bool done = l.raised.size() == l.interrupts.size();
      js << (first ? "\n" : ",\n") << "    {\"index\": " << k << ", \"name\": " << jsonString(l.name)
         << ", \"register_writes\": " << l.writes << ", \"last_write_cycle\": " << l.lastWrite
         << ", \"cycles\": " << (done ? std::to_string(l.cycles()) : "null") << ", \"interrupts\": {";
      for (size_t i = 0; i < l.interrupts.size(); ++i) {
        const auto &e = l.interrupts[i];
        auto at = l.raised.find(e.syncId);
        js << (i ? ", " : "") << jsonString(e.block + "_" + std::to_string(e.group)) << ": "
           << (at == l.raised.end() ? "null" : std::to_string(at->second - l.lastWrite));
      }
      js << "}}";
      first = false;
    }
    js << "\n  ]\n}\n";
  }
  return ok ? 0 : 1;
}
