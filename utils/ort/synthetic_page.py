#!/usr/bin/env python3
"""Writes a synthetic text page for PaddleOCR's detector as a .npy input.

    synthetic_page.py OUT.npy [--size 640]

White, with three lines of dark glyphs (each four 3-pixel strokes in a
24x32 box, numpy PCG64 seed 7), normalized as PaddleOCR's detector expects
(x / 255 - ImageNet mean) / std, NCHW float32. Uniform noise gives the
detector nothing to find (its map stays near 0); this gives it text lines
to mark, so a comparison covers both sides of its threshold.
"""

import argparse

import numpy as np


def page(size):
    img = np.full((size, size, 3), 255.0)
    rng = np.random.default_rng(7)
    for top in (size * 5 // 32, size * 13 // 32, size * 21 // 32):
        for x in range(size * 3 // 32, size * 7 // 8, 30):
            for _ in range(4):
                if rng.integers(2):
                    r = top + int(rng.integers(0, 30))
                    img[r:r + 3, x:x + 24] = 0.0
                else:
                    c = x + int(rng.integers(0, 22))
                    img[top:top + 32, c:c + 3] = 0.0
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    return ((img / 255.0 - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--size", type=int, default=640)
    a = p.parse_args()
    np.save(a.out, page(a.size))


if __name__ == "__main__":
    main()
