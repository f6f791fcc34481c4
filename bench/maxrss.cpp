//===- maxrss.cpp - Peak RSS of one command, from a small launcher ---------===//
//
// Runs a command, exits with its exit code, and writes its peak RSS in bytes
// to RSS_FILE. ru_maxrss of a
// child counts the pages it shares with its parent at fork, so a child of a
// large process (python with numpy) reports that parent's RSS as a floor;
// forked from this launcher (a few MB) the figure is the command's own.
//
// Usage: dla-maxrss RSS_FILE COMMAND [ARGS...]
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: dla-maxrss RSS_FILE COMMAND [ARGS...]\n");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0)
    return 2;
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) < 0)
    return 2;
  FILE *out = std::fopen(argv[1], "w");
  if (!out || std::fprintf(out, "%ld\n", usage.ru_maxrss * 1024L) < 0 || std::fclose(out) != 0)
    return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
