//===- BatchMode.cpp - dla-opt --batch ------------------------------------===//

#include "BatchMode.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <iostream>
#include <string>
#include <unistd.h>

int mlir::dla::runBatch(llvm::function_ref<int(llvm::StringRef, llvm::StringRef)> runOne) {
  std::string line;
  while (std::getline(std::cin, line)) {
    llvm::SmallVector<llvm::StringRef, 3> fields;
    llvm::StringRef(line).split(fields, '\t');
    if (fields.size() != 3) {
      llvm::errs() << "dla-opt --batch: expected INPUT<TAB>OUTPUT<TAB>DIAGNOSTICS, got '" << line
                   << "'\n";
      return 1;
    }
    std::string diagnostics = fields[2].str();
    llvm::errs().flush();
    int saved = dup(STDERR_FILENO);
    int fd = open(diagnostics.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (saved < 0 || fd < 0) {
      llvm::errs() << "dla-opt --batch: cannot write '" << diagnostics << "'\n";
      return 1;
    }
    dup2(fd, STDERR_FILENO);
    close(fd);
    int code = runOne(fields[0], fields[1]);
    llvm::errs().flush();
    dup2(saved, STDERR_FILENO);
    close(saved);
    llvm::outs() << code << "\n";
    llvm::outs().flush();
  }
  return 0;
}

bool mlir::dla::openInputOutput(llvm::StringRef inputFilename, llvm::StringRef outputFilename,
                                std::unique_ptr<llvm::MemoryBuffer> &input,
                                std::unique_ptr<llvm::ToolOutputFile> &output) {
  std::string error;
  input = openInputFile(inputFilename, &error);
  if (input)
    output = openOutputFile(outputFilename, &error);
  if (!input || !output) {
    llvm::errs() << error << "\n";
    return false;
  }
  return true;
}
