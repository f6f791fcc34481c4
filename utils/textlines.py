"""Deterministic text-line images for PaddleOCR's classifier and recognizer:
calibration data and accuracy benchmarks (use different seeds for the two:
calibration 0-999, benchmarks 1000 and up by convention).

    from textlines import render, as_input, save_pngs
    img, text, flipped = render(seed)          # PIL image, its words, rotated 180?
    x = as_input(img, 48, 192)                 # float32 3x48x192, (x/255 - 0.5)/0.5
    save_pngs(DIR, seeds)                      # DIR/line_<seed>_<0|180>.png

    python3 utils/textlines.py DIR FIRST_SEED COUNT

Each seed fixes the words (random lowercase/capitalized letter strings and
digits), the DejaVu font and size, the ink and paper grey levels (contrast
from strong to weak), the margins, and whether the line is rotated by 180
degrees (every other seed, so sets stay balanced). Rendering is Pillow's
only, with fonts from /usr/share/fonts/truetype/dejavu.
"""

import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf",
         "DejaVuSans-Oblique.ttf", "DejaVuSerif-Bold.ttf"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _fonts():
    found = [os.path.join(FONT_DIR, f) for f in FONTS if os.path.exists(os.path.join(FONT_DIR, f))]
    if not found:
        raise FileNotFoundError("no DejaVu fonts in %s (fonts-dejavu-core)" % FONT_DIR)
    return found


def words(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.2:
            out.append(str(rng.randrange(10, 100000)))
        else:
            w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9)))
            out.append(w.capitalize() if rng.random() < 0.3 else w)
    return " ".join(out)


def render(seed, flip=None):
    """(RGB PIL image of one text line, its text, rotated 180 degrees?);
    `flip` overrides the seed's choice."""
    rng = random.Random(seed)
    text = words(rng, rng.randint(1, 4))
    font = ImageFont.truetype(rng.choice(_fonts()), rng.randint(18, 40))
    ink = rng.randint(0, 90)
    paper = rng.randint(max(ink + 60, 150), 255)
    if rng.random() < 0.2:  # light text on dark paper
        ink, paper = paper, ink
    left, top, right, bottom = font.getbbox(text)
    mx, my = rng.randint(2, 16), rng.randint(2, 10)
    img = Image.new("RGB", (right - left + 2 * mx, bottom - top + 2 * my), (paper,) * 3)
    tint = tuple(min(255, max(0, ink + rng.randint(-20, 20))) for _ in range(3))
    ImageDraw.Draw(img).text((mx - left, my - top), text, font=font, fill=tint)
    flipped = seed % 2 == 1 if flip is None else flip
    if flipped:
        img = img.rotate(180)
    return img, text, flipped


def as_input(img, h, w, mean=0.5, std=0.5):
    """CHW float32 of `img` resized to w x h, (x / 255 - mean) / std: the
    preprocessing dla-calibrate documents for images."""
    x = np.asarray(img.convert("RGB").resize((w, h), Image.BILINEAR), dtype=np.float32) / 255.0
    return np.ascontiguousarray(((x - mean) / std).transpose(2, 0, 1))


def batch(seeds, h=48, w=192):
    """N x 3 x h x w inputs and labels (1 = rotated 180 degrees), for the
    classifier (48 x 192) or the recognizer (48 x 320)."""
    imgs = [render(s) for s in seeds]
    return (np.stack([as_input(i, h, w) for i, _, _ in imgs]),
            np.array([int(f) for _, _, f in imgs]), [t for _, t, _ in imgs])


def save_pngs(directory, seeds):
    os.makedirs(directory, exist_ok=True)
    paths = []
    for s in seeds:
        img, _, flipped = render(s)
        paths.append(os.path.join(directory, "line_%05d_%d.png" % (s, 180 if flipped else 0)))
        img.save(paths[-1])
    return paths


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    first, count = int(sys.argv[2]), int(sys.argv[3])
    print("\n".join(save_pngs(sys.argv[1], range(first, first + count))))
