"""The package's ctypes declarations (dla._capi.DECLARED: _capi.py and
execution.py) against the C headers they stand for: include/dla-c/*.h (with
the build's generated Passes.capi.h.inc) and the upstream mlir-c headers
libDLACAPI.so re-exports. Every declared function is declared in a header,
with as many parameters, each of a compatible type, and a compatible
result: scalars of the same C type, pointers to compatible types, the
handle and struct types by name and fields, callbacks by their typedef's
signature, enums as int. A header that changes a signature fails here.

The headers are preprocessed by the C compiler (macros such as
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION expanded) and the top-level
declarations read from its output."""

import ctypes
import os
import re
import shutil
import subprocess

import pytest

import dla
import dla.execution  # noqa: F401 (its declarations)
import dla.tools
from dla import _capi

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLIR_INCLUDE = "/usr/lib/llvm-22/include"
#: The upstream headers of the MLIR C API libDLACAPI.so exports (include/dla-c/Dialects.h).
MLIR_HEADERS = ["IR.h", "Support.h", "BuiltinAttributes.h", "BuiltinTypes.h", "Diagnostics.h",
                "Pass.h", "Transforms.h", "RegisterEverything.h", "ExecutionEngine.h",
                "Dialect/Func.h", "Dialect/Arith.h", "Dialect/Tensor.h"]
CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang-22")

#: C scalar types (after the preprocessor: bool is _Bool) -> ctypes.
SCALARS = {"_Bool": ctypes.c_bool, "int": ctypes.c_int, "unsigned int": ctypes.c_uint,
           "int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16, "int32_t": ctypes.c_int32,
           "int64_t": ctypes.c_int64, "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16,
           "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64, "size_t": ctypes.c_size_t,
           "intptr_t": ctypes.c_ssize_t, "double": ctypes.c_double, "float": ctypes.c_float}
BUILTIN_WORDS = {"int", "char", "short", "long", "unsigned", "signed", "float", "double",
                 "_Bool", "void"}


def _split_statements(text):
    """Top-level statements of preprocessed C: declarations (through their
    ';') and definitions (through their closing brace)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            head = text[start:i]
            if depth == 0 and re.match(r"\s*(static|extern\s+inline)\b", head):
                out.append(text[start:i + 1])  # a function definition
                start = i + 1
        elif ch == ";" and depth == 0:
            out.append(text[start:i])
            start = i + 1
    return [" ".join(s.split()) for s in out]


def _ctype(decl):
    """(base type, pointer depth) of a parameter or result declaration
    without its name: 'const int64_t *' -> ('int64_t', 1)."""
    tokens = [t for t in re.findall(r"\w+|\*", decl) if t not in ("const", "volatile", "struct",
                                                                    "enum", "restrict",
                                                                    "__restrict")]
    depth = tokens.count("*")
    return " ".join(t for t in tokens if t != "*"), depth


def _parameter(decl):
    """The type of one parameter declaration (its name dropped)."""
    tokens = re.findall(r"\w+|\*", decl)
    words = [t for t in tokens if t not in ("const", "volatile", "*")]
    if len(words) >= 2 and tokens[-1] == words[-1] and words[-1] not in BUILTIN_WORDS:
        decl = decl[:decl.rindex(words[-1])]
    return _ctype(decl)


def _parameters(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    return [_parameter(p) for p in text.split(",")]


class Headers:
    """What the headers declare: functions, callback typedefs, struct
    typedefs (their fields), enum typedefs, plain typedefs."""

    def __init__(self, text):
        self.functions, self.callbacks, self.structs, self.enums, self.aliases = {}, {}, {}, set(), {}
        for s in _split_statements(text):
            m = re.match(r"typedef (.+?) \( ?\* ?(\w+) ?\) ?\((.*)\)$", s)
            if m:
                self.callbacks[m.group(2)] = (_ctype(m.group(1)), _parameters(m.group(3)))
                continue
            m = re.match(r"(?:typedef )?struct (\w+)? ?\{(.*)\} ?(\w*)$", s)
            if m:  # typedef struct [X] {...} X, or struct X {...} (typedef'd below)
                fields = [_parameter(f) for f in m.group(2).split(";") if f.strip()]
                self.structs[m.group(3) or m.group(1)] = fields
                continue
            m = re.match(r"typedef enum (\w+)? ?\{.*\} ?(\w+)$", s)
            if m:
                self.enums.add(m.group(2))
                continue
            m = re.match(r"typedef ([\w\s\*]+?) ?(\w+)$", s)
            if m:
                if _ctype(m.group(1)) != (m.group(2), 0):  # not typedef struct X X
                    self.aliases[m.group(2)] = _ctype(m.group(1))
                continue
            m = re.match(r"(?:extern )?([\w\s\*]+?) ?\b(\w+) ?\(([^()]*)\)$", s)
            if m and not s.startswith(("static", "typedef")):
                self.functions[m.group(2)] = (_ctype(m.group(1)), _parameters(m.group(3)))

    def compatible(self, ctype, py, what):
        """An error message, or None when the ctypes type `py` is the C
        type `ctype` ((base, pointer depth))."""
        base, depth = ctype
        while depth == 0 and base in self.aliases and base not in SCALARS \
                and base not in self.structs and base not in self.callbacks:
            base, depth = self.aliases[base]
        if depth == 0:
            if base == "void":
                return None if py is None else "%s: void, declared %r" % (what, py)
            if base in SCALARS:
                ok = py is SCALARS[base]
            elif base in self.enums:
                ok = py is ctypes.c_int
            elif base in self.callbacks:
                return self._callback(base, py, what)
            elif base in self.structs:
                return self._struct(base, py, what)
            else:
                return "%s: C type %s is unknown to this test" % (what, base)
            return None if ok else "%s: C %s, declared %r" % (what, base, py)
        if depth == 1 and base == "void":
            return None if py is ctypes.c_void_p else "%s: void *, declared %r" % (what, py)
        if depth == 1 and base == "char":
            # c_void_p: bytes read by length (MlirStringRef), not to a NUL.
            return None if py in (ctypes.c_char_p, ctypes.c_void_p) else \
                "%s: char *, declared %r" % (what, py)
        target = getattr(py, "_type_", None)
        if not isinstance(target, type) and target is not None:
            return "%s: C %s%s, declared %r" % (what, base, " *" * depth, py)
        if target is None:
            return "%s: C %s%s, declared %r" % (what, base, " *" * depth, py)
        return self.compatible((base, depth - 1), target, what + " (pointee)")

    def _struct(self, name, py, what):
        if getattr(py, "__name__", None) != name or not issubclass(py, ctypes.Structure):
            return "%s: C struct %s, declared %r" % (what, name, py)
        fields = self.structs[name]
        if len(fields) != len(py._fields_):
            return "%s: struct %s has %d fields, declared %d" % (what, name, len(fields),
                                                                  len(py._fields_))
        for i, (field, (_, t)) in enumerate(zip(fields, py._fields_)):
            error = self.compatible(field, t, "%s: %s field %d" % (what, name, i))
            if error:
                return error
        return None

    def _callback(self, name, py, what):
        if not hasattr(py, "_argtypes_"):
            return "%s: C callback %s, declared %r" % (what, name, py)
        result, params = self.callbacks[name]
        if len(params) != len(py._argtypes_):
            return "%s: callback %s takes %d parameters, declared %d" % (
                what, name, len(params), len(py._argtypes_))
        for error in [self.compatible(result, py._restype_, "%s: %s result" % (what, name))] + [
                self.compatible(p, t, "%s: %s parameter %d" % (what, name, i))
                for i, (p, t) in enumerate(zip(params, py._argtypes_))]:
            if error:
                return error
        return None


@pytest.fixture(scope="module")
def headers(tmp_path_factory):
    if CC is None:
        pytest.skip("no C compiler to preprocess the headers")
    dla_c = os.path.join(ROOT, "include", "dla-c")
    generated = os.path.join(os.path.dirname(dla.tools.BIN_DIR), "include")
    if not os.path.exists(os.path.join(generated, "dla-c", "Passes.capi.h.inc")):
        pytest.skip("the build's generated dla-c/Passes.capi.h.inc is not beside the package")
    tu = tmp_path_factory.mktemp("capi") / "all.c"
    tu.write_text("".join('#include "dla-c/%s"\n' % h for h in sorted(os.listdir(dla_c))
                          if h.endswith(".h")) +
                  "".join('#include "mlir-c/%s"\n' % h for h in MLIR_HEADERS))
    proc = subprocess.run([CC, "-E", "-P", "-D__attribute__(x)=", "-I", os.path.join(ROOT, "include"),
                           "-I", generated, "-I", MLIR_INCLUDE, str(tu)],
                          capture_output=True, text=True,
                          # The compiler without the sanitizer runtime the
                          # sanitizer run preloads into Python.
                          env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    assert proc.returncode == 0, proc.stderr
    return Headers(proc.stdout)


def test_the_package_declares_what_it_uses():
    assert len(_capi.DECLARED) > 100
    assert "dlaExecutionEngineCreate" in _capi.DECLARED  # execution.py's too


@pytest.mark.parametrize("name", sorted(_capi.DECLARED))
def test_declaration_matches_the_header(headers, name):
    assert name in headers.functions, "%s is declared in no header" % name
    (result, params), (restype, argtypes) = headers.functions[name], _capi.DECLARED[name]
    assert len(params) == len(argtypes), "%s takes %d parameters in C, %d declared" % (
        name, len(params), len(argtypes))
    errors = [headers.compatible(result, restype, "%s result" % name)] + [
        headers.compatible(p, t, "%s parameter %d" % (name, i))
        for i, (p, t) in enumerate(zip(params, argtypes))]
    assert not [e for e in errors if e], [e for e in errors if e]


def test_the_check_sees_a_changed_signature(headers):
    """The comparison fails on what a header change would bring: a
    parameter more, another scalar type, another handle, another pointee."""
    c = ctypes
    (result, params) = headers.functions["dlaChunkedAttrGet"]
    assert [headers.compatible(p, t, "p") for p, t in zip(params, _capi.DECLARED[
        "dlaChunkedAttrGet"][1])] == [None] * 4
    assert headers.compatible(params[1], c.c_int, "p")           # intptr_t, not int
    assert headers.compatible(params[2], c.POINTER(c.c_int32), "p")  # int64_t *
    assert headers.compatible(params[0], _capi.MlirModule, "p")  # MlirContext
    assert headers.compatible(result, _capi.MlirType, "r")       # MlirAttribute
    walk = headers.functions["mlirOperationWalk"][1][1]
    assert headers.compatible(walk, _capi.MlirOperationWalkCallback, "cb") is None
    assert headers.compatible(walk, _capi.MlirStringCallback, "cb")
