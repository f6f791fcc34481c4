// dla-run-loadable: runs NVDLA loadables through NVIDIA's runtime and
// firmware on NVIDIA's C model (harness.h) and writes their outputs.
// One binary per C model configuration (BUILD_DIR/nvdla-runtime/<config>/);
// BUILD_DIR/nvdla-runtime/dla-run-loadable picks it by --config.
#include "firmware.h"
#include "harness.h"

#include <systemc.h> // sc_main

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

static const char *kTool = "dla-run-loadable";

static int usage() {
  std::fprintf(stderr,
               "usage: %s MODEL.nvdla [MODEL.nvdla ...] [--input FILE ...] [--firmware auto|head|c906fc6]\n"
               "       [--config %s] [--timeout SECONDS] [-v] -o OUTDIR\n"
               "  runs each loadable through NVIDIA's runtime and firmware on NVIDIA's C model (%s)\n"
               "  and writes OUTDIR/output.dimg (nvdla_runtime's format) and OUTDIR/output<i>.bin (raw\n"
               "  bytes of output i); with several loadables, OUTDIR/<loadable name>/...\n"
               "  --input     raw bytes of input i (its exact buffer size), in order, of the loadable named\n"
               "              before it (inputs before the first loadable are the first loadable's)\n"
               "  --firmware  head (nvdla/sw HEAD, 2019 dla_data_cube with 'offset'), c906fc6 (before it,\n"
               "              as NVIDIA's 2018 regression loadables), or auto (default): the one the\n"
               "              loadable's blob version names (before 0.12: c906fc6, else head)\n"
               "  --timeout   wall-clock limit per loadable (default 600)\n",
               kTool, dla_loadable::Runner::configuration(), dla_loadable::Runner::configuration());
  return 2;
}

static bool readFile(const std::string &path, std::vector<uint8_t> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

static bool writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
  return bool(out);
}

static std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = b.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

// A crash inside NVIDIA's code (the C model divides by zero on an nv_full
// loadable run on nv_large) still says which loadable it was.
static char crashPrefix[4096];
static void onCrash(int sig) {
  const char *what = sig == SIGFPE ? "SIGFPE" : sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIGILL";
  ssize_t ignored = write(2, crashPrefix, std::strlen(crashPrefix));
  ignored = write(2, what, std::strlen(what));
  ignored = write(2, " (NVIDIA's code or the C model crashed)\n", 40);
  (void)ignored;
  _exit(1);
}

static int fail(const std::string &where, const std::string &what) {
  std::fprintf(stderr, "%s: error: %s%s%s\n", kTool, where.c_str(), where.empty() ? "" : ": ", what.c_str());
  return 1;
}

int sc_main(int argc, char **argv) {
  // The v1 model's BDMA has a signal with two drivers: SystemC 2.3.4 stops
  // it with E115 unless SC_SIGNAL_WRITE_CHECK allows that, and reads the
  // variable before sc_main (../shared/nvdla-hw-v1/BUILDING.md). Set, the
  // command runs itself again.
  if (!std::strcmp(dla_loadable::Runner::configuration(), "nv_full") && !std::getenv("SC_SIGNAL_WRITE_CHECK")) {
    setenv("SC_SIGNAL_WRITE_CHECK", "CONFLICT", 1);
    execv("/proc/self/exe", argv);
    std::perror("dla-run-loadable: cannot run itself again with SC_SIGNAL_WRITE_CHECK=CONFLICT");
    return 1;
  }
  std::vector<std::string> models;
  // Each loadable's inputs: a --input belongs to the loadable named before it.
  std::vector<std::vector<std::string>> inputs(1);
  std::string outDir, config;
  dla_loadable::RunOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &dst) {
      if (i + 1 >= argc)
        return false;
      dst = argv[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      usage();
      return 0;
    } else if (a == "-v") {
      options.verbose = true;
    } else if (a == "-o") {
      if (!value(outDir))
        return usage();
    } else if (a == "--input") {
      std::string f;
      if (!value(f))
        return usage();
      inputs.back().push_back(f);
    } else if (a == "--firmware") {
      if (!value(options.firmware))
        return usage();
    } else if (a == "--config") {
      if (!value(config))
        return usage();
    } else if (a == "--timeout") {
      std::string t;
      if (!value(t))
        return usage();
      char *end = nullptr;
      options.timeoutSeconds = std::strtod(t.c_str(), &end);
      if (!end || *end || !(options.timeoutSeconds > 0))
        return fail("--timeout " + t, "not a positive number of seconds");
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "%s: error: unknown option %s\n", kTool, a.c_str());
      return usage();
    } else {
      // Inputs named before the first loadable are its own.
      if (!models.empty())
        inputs.emplace_back();
      models.push_back(a);
    }
  }
  if (models.empty() || outDir.empty())
    return usage();
  if (!config.empty() && config != dla_loadable::Runner::configuration())
    return fail("--config " + config, std::string("this harness is built for ") +
                                          dla_loadable::Runner::configuration());
  if (options.firmware != "auto" && !dla_loadable::findFirmware(options.firmware))
    return fail("--firmware " + options.firmware,
                "no such firmware (built: " + dla_loadable::firmwareNames() + "; or auto)");
  std::vector<std::vector<std::vector<uint8_t>>> inputBytes(inputs.size());
  for (size_t m = 0; m < inputs.size(); ++m) {
    inputBytes[m].resize(inputs[m].size());
    for (size_t i = 0; i < inputs[m].size(); ++i)
      if (!readFile(inputs[m][i], inputBytes[m][i]))
        return fail("--input " + inputs[m][i], "cannot read the file");
  }

  // NVIDIA's C model writes debug dumps (cdma2cbuf_*_cmod.dat) into the
  // working directory: it runs in a private one, removed at exit, so the
  // user's directory gets only the outputs.
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string outAbs = fs::absolute(outDir, ec).string();
  std::vector<std::string> paths;
  for (const std::string &model : models)
    paths.push_back(fs::absolute(model, ec).string());
  char scratch[] = "/tmp/dla-run-loadable.XXXXXX";
  if (!mkdtemp(scratch) || chdir(scratch) != 0)
    return fail(scratch, std::string("cannot make a working directory: ") + std::strerror(errno));
  struct RemoveScratch {
    std::string dir;
    ~RemoveScratch() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } removeScratch{scratch};
  dla_loadable::Runner runner;
  for (int sig : {SIGFPE, SIGSEGV, SIGBUS, SIGILL})
    std::signal(sig, onCrash);
  int status = 0;
  mkdir(outAbs.c_str(), 0777);
  for (size_t m = 0; m < models.size(); ++m) {
    const std::string &model = models[m];
    const std::vector<std::vector<uint8_t>> &given = inputBytes[m];
    std::vector<uint8_t> bytes;
    if (!readFile(paths[m], bytes)) {
      status = fail(model, "cannot read the file");
      continue;
    }
    std::string dir = outAbs, shown = outDir;
    if (models.size() > 1) {
      dir += "/" + baseName(model);
      shown += "/" + baseName(model);
      mkdir(dir.c_str(), 0777);
    }
    std::snprintf(crashPrefix, sizeof crashPrefix, "%s: error: %s: the process received ", kTool, model.c_str());
    dla_loadable::RunResult r = runner.run(bytes, given, options);
    if (!r.ok) {
      status = fail(model, r.error + " [" + dla_loadable::Runner::configuration() + ", firmware " +
                               (r.firmware.empty() ? options.firmware : r.firmware) +
                               (r.firmwareChoice.empty() ? "" : " (" + r.firmwareChoice + ")") + "]");
      continue;
    }
    for (size_t i = 0; i < r.outputs.size(); ++i) {
      std::string raw = dir + "/output" + std::to_string(i) + ".bin";
      std::string dimg = dir + (i ? "/output" + std::to_string(i) + ".dimg" : std::string("/output.dimg"));
      std::string err;
      if (!writeFile(raw, r.outputs[i].bytes))
        status = fail(raw, "cannot write the file");
      else if (!dla_loadable::writeDimg(r.outputs[i], dimg, err))
        status = fail(dimg, err);
    }
    std::string firmware = r.firmware + (r.firmwareChoice.empty() ? "" : " (" + r.firmwareChoice + ")");
    // EMU tasks: the loadable's, which NVIDIA's runtime hands its emulator.
    std::string emu = r.emuTasks ? " and " + std::to_string(r.emuTasks) + " EMU task" +
                                       (r.emuTasks == 1 ? "" : "s") + " (NVIDIA's emulator)"
                                 : "";
    std::printf("%s: ok (%s, firmware %s, %u DLA task%s%s, %llu interrupts, %llu register writes, "
                "%.2f s, simulated %.1f us)\n",
                model.c_str(), dla_loadable::Runner::configuration(), firmware.c_str(), r.dlaTasks,
                r.dlaTasks == 1 ? "" : "s", emu.c_str(), (unsigned long long)r.interrupts,
                (unsigned long long)r.registerWrites, r.wallSeconds, r.simulatedSeconds * 1e6);
    for (size_t i = 0; i < r.inputs.size(); ++i)
      std::printf("  input %zu  %s%s\n", i, r.inputs[i].summary().c_str(),
                  i < given.size() ? "" : " (zero: no --input)");
    for (size_t i = 0; i < r.outputs.size(); ++i)
      std::printf("  output %zu %s -> %s/output%zu.bin\n", i, r.outputs[i].tensor.summary().c_str(), shown.c_str(), i);
    std::fflush(stdout);
  }
  return status;
}
