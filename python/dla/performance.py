"""How long a compiled network takes on an NVDLA configuration: the format
library's performance model (dla/Format/NvdlaPerformance.h, through
dla-c/Performance.h; docs/PerformanceModel.md) applied to a bundle's
hardware layers.

    from dla import performance
    c = performance.hardware_config("nv_full", "int8")        # 1 GHz, 10 GB/s
    c = performance.custom_config("nv_full", "int8", macs=1024, conv_buffer_kb=256,
                                  clock_mhz=800, dram_gbps=25.6)
    performance.estimate(c, kind="convolution", channels=64, height=56, width=56,
                         kernels=64, kernel=(3, 3), padding=(1, 1, 1, 1))["cycles"]
    performance.estimate_bundle(manifest, c)   # per layer and per frame

Every cycle count comes from the C++ model; this module only reads a
layer's shape off its op (hardware_layer) and adds the layers up.
"""

import ctypes
import re

from . import DLAError, _capi, _check

#: Configurations of NVIDIA's open-source NVDLA (dla/Format/NvdlaHardware.h).
CONFIGURATIONS = ("nv_small", "nv_large", "nv_full")
#: Defaults where the .spec files are silent: the spreadsheet's clock and
#: bandwidth (docs/PerformanceModel.md, "Clock and bandwidth").
DEFAULT_CLOCK_MHZ = 1000.0
DEFAULT_DRAM_GBPS = 10.0

_KINDS = {"convolution": 0, "fully-connected": 1, "sdp": 2, "pdp": 3, "cdp": 4}


class Config:
    """A configuration of the model: `name` for people, `c` the C struct."""

    def __init__(self, name, c, precision):
        self.name, self.c, self.precision = name, c, precision

    def describe(self):
        """The numbers a reader needs beside an estimate."""
        return {"name": self.name, "precision": self.precision, "macs": self.c.macs,
                "conv_buffer_bytes": self.c.convBufferBytes, "clock_hz": self.c.clockHz,
                "dram_bytes_per_second": self.c.dramBytesPerSecond,
                "memory_latency_cycles": self.c.memoryLatencyCycles}


def hardware_config(name, precision, clock_mhz=None, dram_gbps=None):
    """`name`'s configuration computing in `precision`; DLAError if it does
    not (nv_small computes int8 only)."""
    c = _capi.DlaPerfConfig()
    _check(_capi.dlaPerfGetHardwareConfig(
        name.encode(), precision.encode(), (clock_mhz or DEFAULT_CLOCK_MHZ) * 1e6,
        (dram_gbps or DEFAULT_DRAM_GBPS) * 1e9, ctypes.byref(c)))
    return Config(name, c, precision)


def custom_config(base, precision, macs=None, conv_buffer_kb=None, clock_mhz=None,
                  dram_gbps=None, memory_latency_cycles=None):
    """`base` with other MACs (atomic-C grows or shrinks, the kernels per
    group stay), buffer size (KB), clock (MHz), DRAM bandwidth (GB/s, 1e9
    bytes) or memory latency (cycles: docs/PerformanceModel.md,
    "Calibration")."""
    config = hardware_config(base, precision, clock_mhz, dram_gbps)
    c, changes = config.c, []
    if macs is not None:
        if macs <= 0 or macs % c.kernelGranule:
            raise DLAError("--macs %d: not a positive multiple of %s's %d kernels per group"
                           % (macs, base, c.kernelGranule))
        c.macs, c.channelGranule = macs, macs // c.kernelGranule
        changes.append("%d MACs" % macs)
    if conv_buffer_kb is not None:
        if conv_buffer_kb <= 0:
            raise DLAError("--cbuf-kb %s: not a positive size" % conv_buffer_kb)
        c.convBufferBytes = int(conv_buffer_kb * 1024)
        changes.append("%g KB buffer" % conv_buffer_kb)
    if clock_mhz is not None:
        changes.append("%g MHz" % clock_mhz)
    if dram_gbps is not None:
        changes.append("%g GB/s" % dram_gbps)
    if memory_latency_cycles is not None:
        if memory_latency_cycles < 0:
            raise DLAError("--memory-latency %g: not a cycle count" % memory_latency_cycles)
        c.memoryLatencyCycles = memory_latency_cycles
        changes.append("%g cycles latency" % memory_latency_cycles)
    if changes:
        config.name = "%s (%s)" % (base, ", ".join(changes))
    return config


def spreadsheet_config():
    """NVIDIA's spreadsheet's configuration and conventions."""
    c = _capi.DlaPerfConfig()
    _capi.dlaPerfGetSpreadsheetConfig(ctypes.byref(c))
    return Config("NVIDIA spreadsheet", c, "int8")


def estimate(config, kind="convolution", channels=1, height=1, width=1, kernels=0,
             kernel=(1, 1), stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1),
             winograd=False, pool=None, pool_stride=None, pool_padding=(0, 0, 0, 0),
             elementwise=False, weight_bytes=0, weight_banks=0, **_ignored):
    """One hardware layer's estimate (a dict of the model's numbers)."""
    if kind not in _KINDS:
        raise DLAError("layer kind %r: expected one of %s" % (kind, ", ".join(_KINDS)))
    l = _capi.DlaPerfLayer()
    l.kind = _KINDS[kind]
    l.channels, l.height, l.width, l.kernels = channels, height, width, kernels
    l.kernelH, l.kernelW = kernel
    l.strideH, l.strideW = stride
    l.padTop, l.padBottom, l.padLeft, l.padRight = padding
    l.dilationH, l.dilationW = dilation
    l.winograd = bool(winograd) and bool(config.c.winograd)
    if pool:
        l.poolH, l.poolW = pool
        l.poolStrideH, l.poolStrideW = pool_stride or pool
        l.poolPadTop, l.poolPadBottom, l.poolPadLeft, l.poolPadRight = pool_padding
    l.elementwiseOperand = bool(elementwise)
    l.weightBytes = weight_bytes
    l.weightBanks = weight_banks
    e = _capi.DlaPerfEstimate()
    plan = ctypes.create_string_buffer(256)
    _check(_capi.dlaPerfEstimateLayer(ctypes.byref(config.c), ctypes.byref(l), ctypes.byref(e),
                                      plan, len(plan)))
    out = {name: getattr(e, name) for name, _ in e._fields_}
    out["longPole"] = _capi.dlaPerfGetLongPoleName(e.longPole).decode()
    out["bufferPlan"] = plan.value.decode()
    return out


# --- A bundle's hardware layers ----------------------------------------------

def _ints(attr, default):
    """[1, 2] of "array<i64: 1, 2>" (or `default` when absent)."""
    if attr is None:
        return list(default)
    return [int(x) for x in re.findall(r"-?\d+", str(attr).split(":", 1)[-1])]


def _int(attr, default):
    """3 of "3 : i64" (or `default` when absent)."""
    return default if attr is None else int(str(attr).split(":", 1)[0])


def hardware_layer(op, operand_types, producer=None):
    """What the model needs of a layer op (its shapes and attributes) as a
    manifest entry, or None for an op it does not model. An SDP on the fly
    behind a convolution is part of that hardware layer: {"fused_into":
    producer's name} (bundle.describe fills the name)."""
    shapes = [list(t.shape) if str(t).startswith("tensor<") else None for t in operand_types]
    if not shapes or not shapes[0] or len(shapes[0]) != 4:
        return None
    n, c, h, w = shapes[0]
    base = {"batch": n, "channels": c, "height": h, "width": w}
    if op.name == "dla.conv":
        k, wc, r, s = shapes[1]
        try:
            weight_bytes = operand_types[1].layout().storage_bytes
        except DLAError:
            weight_bytes = 0
        return dict(base, kind="convolution", kernels=k, kernel=[r, s],
                    stride=_ints(op.attributes.get("strides"), (1, 1)),
                    padding=_ints(op.attributes.get("padding"), (0, 0, 0, 0)),
                    dilation=_ints(op.attributes.get("dilations"), (1, 1)),
                    winograd="winograd" in str(op.attributes.get("mode")),
                    weight_bytes=weight_bytes,
                    weight_banks=_int(op.attributes.get("weight_banks"), 0))
    if op.name in ("dla.sdp", "dla.clamp"):
        elementwise = any(s == shapes[0] for s in shapes[1:])
        if "on_the_fly" in str(op.attributes.get("mode")) and producer is not None \
                and producer.name == "dla.conv":
            return {"kind": "sdp", "fused": True, "elementwise": elementwise}
        return dict(base, kind="sdp", kernels=c, elementwise=elementwise)
    if op.name == "dla.upsample":
        # One SDP pass-through per output phase, each reading the input
        # once and writing its share of the output (docs/Resize.md): as
        # many elements as one offline SDP over the output.
        # A border (a bilinear resize's) adds 2 by rows and 2 bx columns.
        fy, fx = _ints(op.attributes.get("factors"), (1, 1))
        by, bx = _ints(op.attributes.get("border"), (0, 0))
        return dict(base, height=h * fy + 2 * by, width=w * fx + 2 * bx, kind="sdp", kernels=c,
                    elementwise=False)
    if op.name == "dla.interleave":
        # One SDP pass-through per phase, each reading its own input and
        # writing its share of the output (docs/Resize.md "Pixel
        # shuffles"): one offline SDP over the output.
        fy, fx = _ints(op.attributes.get("factors"), (1, 1))
        return dict(base, height=h * fy, width=w * fx, kind="sdp", kernels=c, elementwise=False)
    if op.name == "dla.pool":
        return dict(base, kind="pdp", kernels=c, pool=_ints(op.attributes.get("kernel"), (1, 1)),
                    pool_stride=_ints(op.attributes.get("strides"), (1, 1)),
                    pool_padding=_ints(op.attributes.get("padding"), (0, 0, 0, 0)))
    if op.name == "dla.lrn":
        return dict(base, kind="cdp", kernels=c)
    return None


def estimate_bundle(manifest, config, annotate=True):
    """The frame's estimate on `config` from the manifest's layers' "hardware"
    entries; with `annotate`, each layer gets its "estimate". Returns the
    manifest's "estimate" entry."""
    layers = manifest["layers"]
    # Fold SDPs on the fly into their convolution's hardware layer.
    elementwise = set()
    for l in layers:
        hw = l.get("hardware")
        if hw and hw.get("fused") and hw.get("fused_into") and hw.get("elementwise"):
            elementwise.add(hw["fused_into"])
    total = mac = macs = 0.0
    poles, modelled, errors = {}, 0, []
    for l in layers:
        hw = l.get("hardware")
        if not hw:
            continue
        if hw.get("fused"):
            if annotate:
                l["estimate"] = {"fused_into": hw.get("fused_into")}
            continue
        try:
            e = estimate(config, **dict(hw, elementwise=hw.get("elementwise") or
                                        l["name"] in elementwise))
        except DLAError as err:
            errors.append("%s: %s" % (l["name"], err))
            if annotate:
                l["estimate"] = {"error": str(err)}
            continue
        batch = hw.get("batch", 1)
        cycles = e["cycles"] * batch
        modelled += 1
        total += cycles
        mac += e["macCycles"] * batch
        macs += e["networkMacs"] * batch
        poles[e["longPole"]] = poles.get(e["longPole"], 0) + 1
        if annotate:
            l["estimate"] = {"cycles": round(cycles, 1),
                             "seconds": cycles / config.c.clockHz,
                             "long_pole": e["longPole"],
                             "mac_utilization": round(e["macCycles"] / e["cycles"], 4)
                             if e["cycles"] else 0.0,
                             "traffic_bytes": round(e["trafficBytes"] * batch),
                             "buffer_plan": e["bufferPlan"]}
    return {"configuration": config.describe(),
            "layers": modelled,
            "frame_cycles": round(total, 1),
            "frame_seconds": total / config.c.clockHz,
            "mac_utilization": round(mac / total, 4) if total else 0.0,
            "network_mac_utilization": round(macs / config.c.macs / total, 4) if total else 0.0,
            "long_poles": poles,
            "errors": errors}


def time_text(seconds):
    """"1.234 ms", or "12.34 us" under a millisecond."""
    return "%.3f ms" % (seconds * 1e3) if seconds >= 1e-3 else "%.2f us" % (seconds * 1e6)


def frame_text(est):
    """One line: "1.234 ms (810 frames/s) on nv_full int8 at 1000 MHz, 10
    GB/s; MAC utilization 43% (31% on the network's own multiply-
    accumulates); long pole: 12 MAC, 30 memory"."""
    c = est["configuration"]
    seconds = est["frame_seconds"]
    text = "%s (%s frames/s) on %s %s at %g MHz, %g GB/s" % (
        time_text(seconds), "%.0f" % (1 / seconds) if seconds else "-", c["name"],
        c["precision"], c["clock_hz"] / 1e6, c["dram_bytes_per_second"] / 1e9)
    text += "; MAC utilization %.0f%% (%.0f%% on the network's own multiply-accumulates)" % (
        100 * est["mac_utilization"], 100 * est["network_mac_utilization"])
    if est["long_poles"]:
        text += "; long pole: " + ", ".join("%d %s" % (n, p) for p, n in
                                            sorted(est["long_poles"].items(), key=lambda x: -x[1]))
    if est["errors"]:
        text += "; %d layers not estimated" % len(est["errors"])
    return text


def table(manifest, configs):
    """Rows of a frame-time table of the manifest's layers across `configs`
    (Config or (name, error text) for a configuration that cannot run it)."""
    header = ["configuration", "precision", "MACs", "buffer", "clock", "DRAM", "frame time",
              "frames/s", "MAC util", "long pole"]
    rows = [header]
    for config in configs:
        if isinstance(config, tuple):
            rows.append([config[0], "", "", "", "", "", "-", "", "", config[1]])
            continue
        est = estimate_bundle(manifest, config, annotate=False)
        c, s = config.c, est["frame_seconds"]
        poles = sorted(est["long_poles"].items(), key=lambda x: -x[1])
        rows.append([config.name, config.precision, str(c.macs),
                     "%d KB" % (c.convBufferBytes // 1024), "%g MHz" % (c.clockHz / 1e6),
                     "%g GB/s" % (c.dramBytesPerSecond / 1e9), time_text(s),
                     "%.0f" % (1 / s) if s else "-", "%.0f%%" % (100 * est["mac_utilization"]),
                     ", ".join("%d %s" % (n, p) for p, n in poles) +
                     ("; %d not estimated" % len(est["errors"]) if est["errors"] else "")])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
