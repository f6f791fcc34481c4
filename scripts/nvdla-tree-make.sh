# Sourced by scripts/build-nvdla-cmod.sh and scripts/build-nvdla-cmod-v1.sh:
# write_tree_make FILE GCC PROJECT... writes nvdla/hw's tree.make (normally
# written by interactive prompts, ../shared/nvdla-hw*/BUILDING.md) for
# Debian's tools and SystemC. GCC is what the cmod Makefile compiles with:
# master's compiles C++ through CXX (gcc is fine), v1's through GCC (g++).
write_tree_make() {
  local file=$1 gcc=$2
  shift 2
  cat > "$file" <<EOF
PROJECTS := $*
CPP := /usr/bin/cpp
GCC := $gcc
CXX := /usr/bin/g++
PERL := /usr/bin/perl
JAVA := /usr/bin/java
SYSTEMC := /usr
PYTHON := /usr/bin/python3
VCS_HOME := /nonexistent
NOVAS_HOME := /nonexistent
VERDI_HOME := /nonexistent
VERILATOR := /nonexistent
CLANG := /nonexistent
USE_DESIGNWARE := 0
DESIGNWARE_DIR := /nonexistent
EOF
}
