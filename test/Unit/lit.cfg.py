# -*- Python -*-
# Runs the GoogleTest binaries under build/unittests as part of check-dla.
import os

import lit.formats

config.name = "DLA-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.dla_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
