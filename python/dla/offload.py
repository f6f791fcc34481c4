"""What --dla-convert-tosa's remarks say was offloaded, and when a tool
refuses the result: dla-run-onnx and dla-compile both ask here."""

import os
import re

__all__ = ["SUMMARY", "summary", "refusal"]

SUMMARY = re.compile(r"remark: dla-convert-tosa: (\d+) of (\d+) layers on \S+ \S+"
                     r"(?: \(([\d.]+)% of the multiply-accumulates\))?")


def summary(remarks):
    """(layers offloaded, layers, share of the multiply-accumulates in
    percent as the remark writes it, or None) from the remarks' text, or
    None without a summary."""
    m = SUMMARY.search(remarks)
    if not m:
        return None
    return int(m.group(1)), int(m.group(2)), m.group(3)


def _most_common_reason(remarks):
    """The commonest reason a layer stays on the host, with up to three of
    its nodes."""
    # "model.onnx: node 'conv1': remark: stays on the host: why"
    # (tools/dla-opt/ModelDiagnostics.h): the reason and its nodes.
    found = re.findall(r"(?:node '(.*)': )?remark: stays on the host: (.*)", remarks)
    reasons = [r for _, r in found]
    why = max(set(reasons), key=reasons.count) if reasons else "see --dla-convert-tosa's remarks"
    nodes = list(dict.fromkeys(n for n, r in found if r == why and n))
    if nodes:
        why += ", at node%s %s" % ("s" if len(nodes) > 1 else "", ", ".join(
            "'%s'" % n for n in nodes[:3]) + (", ..." if len(nodes) > 3 else ""))
    return why


def refusal(remarks, model, target, precision, min_share=None, anyway="runs it on the host anyway",
            macs=False):
    """The message refusing a compile of `model` for `target` `precision`
    that offloads no layer of a network with multiply-accumulates, with
    `macs` none of those (only layers without any: dla-compile), or less
    than `min_share` percent of them; None when it is fine."""
    s = summary(remarks)
    if s is None or s[2] is None:
        return None
    on, _, share = s
    name = os.path.basename(model)
    if on == 0:
        return ("nothing of %s runs on %s %s (most often: %s); --allow-host %s"
                % (name, target, precision, _most_common_reason(remarks), anyway))
    if macs and float(share) == 0:
        return ("none of the multiply-accumulates of %s run on %s %s (%d layers without any do; "
                "most often: %s); --allow-host %s" % (name, target, precision, on,
                                                      _most_common_reason(remarks), anyway))
    if min_share is not None and float(share) < min_share:
        return ("%s%% of the multiply-accumulates of %s run on %s %s, less than --min-offload %g "
                "(most often: %s); --allow-host %s" % (share, name, target, precision, min_share,
                                                       _most_common_reason(remarks), anyway))
    return None
