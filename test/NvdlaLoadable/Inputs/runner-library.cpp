// The harness as a library (test/NvdlaLoadable/library.test): one Runner,
// three loadables, the first again last; prints each run and whether the
// two runs of the first gave the same bytes.
#include "harness.h"

#include <cstdio>
#include <fstream>
#include <iterator>

extern "C" int sc_main(int argc, char *argv[]) {
  if (argc != 5)
    return 2;
  dla_loadable::Runner runner;
  dla_loadable::RunOptions options;
  options.firmware = "c906fc6";
  std::vector<std::vector<uint8_t>> first;
  for (int i : {1, 2, 3, 1}) {
    std::ifstream in(argv[i], std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    dla_loadable::RunResult r = runner.run(bytes, {}, options);
    std::printf("%s %s: %s, %zu output(s)\n", dla_loadable::Runner::configuration(), argv[i],
                r.ok ? "ok" : r.error.c_str(), r.outputs.size());
    if (!r.ok || r.outputs.empty())
      return 1;
    if (i == 1 && first.empty()) {
      first.push_back(r.outputs[0].bytes);
      std::string error;
      if (!dla_loadable::writeDimg(r.outputs[0], argv[4], error))
        return std::printf("%s\n", error.c_str()), 1;
    } else if (i == 1) {
      std::printf("same bytes on the second run: %s\n", first[0] == r.outputs[0].bytes ? "yes" : "no");
    }
  }
  return 0;
}
