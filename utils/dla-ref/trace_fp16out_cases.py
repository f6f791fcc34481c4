"""run_trace.py's int16 pipelines writing fp16 on nv_full (kinds fp16out-*,
--config nv_full --precision int16): the SDP processes in int16 (sdp.c
map_proc_precision[fp16][int16]) and its output converter's 17-bit value
goes to fp16 (cmod/hls/sdp/sdp_c.cpp: Int17ToFp16, nearest even,
saturating at +-65504; NetworkPlan.cpp int16PipelineWritesFp16).

kind fp16out-conv: run_trace's int16 `conv` draws (a direct convolution,
an SDP on the fly; 70% spread) with the SDP writing fp16, an SDP adding 0
where conv_case has none. kind fp16out-sdp: its int16 `sdp` draws (an
offline SDP) writing fp16. kind fp16out-image: trace_image16_cases' image
convolutions into int16 image weights, their SDP on the fly writing fp16.

The functions take the run_trace module (`rt`, configured for nv_full
int16) for its Case and types.
"""

import trace_image16_cases

FEATURE_FP16 = "#dla.feature<fp16, config = nv_full>"


def _to_fp16(rt, c, name):
    """Case `c` (its result int16) with its SDP writing fp16: a convolution
    alone gets an SDP on the fly adding 0 (the plan programs the stage
    form only)."""
    out16 = c.out_type()
    out = rt.ttype(c.out_shape, FEATURE_FP16, "f16")
    body = c.body
    if "dla.sdp" not in body:
        conv_t = rt.ttype(c.out_shape, None)
        body = (body.replace("%y = dla.conv", "%c = dla.conv").replace(f"-> {out16}",
                                                                        f"-> {conv_t}") +
                f"\n  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 0> : {conv_t} -> "
                f"{out16}")
    assert body.endswith(f"-> {out16}"), body
    c.body, c.name = body[: -len(out16)] + out, name
    c.out_elt, c.out_enc = "f16", FEATURE_FP16
    return c


def conv_case(rt, rng, n):
    return _to_fp16(rt, rt.conv_case(rng, n), f"fp16out_conv_{n}")


def sdp_case(rt, rng, n):
    return _to_fp16(rt, rt.sdp_case(rng, n), f"fp16out_sdp_{n}")


def image_case(rt, rng, n):
    return trace_image16_cases.image16_case(rt, rng, n, fp16=True)
