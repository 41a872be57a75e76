#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""map_pixels.py - does a screenshot show what the page says it drew?

usage: map_pixels.py SCREENSHOT.png DOM.html KIND=COLOUR...

Reads the problem marks the map page drew (smq_map_page.html: elements of
class "pb KIND" with data-screen="x1,y1,x2,y2" in page pixels, or "cx,cy,r"
for a ring) from a --dump-dom of the page, and the PNG Chromium wrote with
--screenshot at the same window size, decoded here with zlib alone (8-bit
RGB or RGBA, not interlaced, every filter type).  For each KIND named, every
mark of that kind must show COLOUR ("red" or "purple") at most of the points
sampled along it (a line between 20% and 80% of its length, away from the
boxes at its ends; a ring on its circle).  Prints one line per mark with the
share of its points that match; exits 1 when a kind has no mark or a mark is
not seen, 2 on a file it cannot read.
"""
import math
import re
import struct
import sys
import zlib

COLOURS = {
    # the page's problem colours, kept apart from the load scale's
    # hsl(0..120, 75%, 40%), whose red is (178, 25, 25) and blue at most 25
    "red": lambda r, g, b: r >= 200 and g <= 90 and b <= 90,
    "purple": lambda r, g, b: 110 <= r <= 210 and g <= 90 and b >= 200,
}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """(width, height, bytes per pixel, rows of bytes)"""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, head = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if not head:
        raise ValueError("no IHDR")
    width, height, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("depth %d, colour type %d, interlace %d: not read here"
                         % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif kind == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                upleft = prev[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + paeth(left, prev[x], upleft)) & 255
        elif kind != 0:
            raise ValueError("filter type %d" % kind)
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def marks(dom, kind):
    """The data-screen numbers of every mark of class "pb KIND" (selected too)."""
    found = []
    for tag in re.findall(r"<(?:line|circle)\b[^>]*>", dom):
        cls = re.search(r'class="([^"]*)"', tag)
        scr = re.search(r'data-screen="([^"]*)"', tag)
        if cls and scr and cls.group(1).split()[:2] == ["pb", kind]:
            found.append([float(v) for v in scr.group(1).split(",")])
    return found


def points(mark):
    if len(mark) == 4:
        x1, y1, x2, y2 = mark
        return [(x1 + (x2 - x1) * t / 20, y1 + (y2 - y1) * t / 20) for t in range(4, 17)]
    cx, cy, r = mark
    return [(cx + r * math.cos(a * math.pi / 8), cy + r * math.sin(a * math.pi / 8))
            for a in range(16)]


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        width, height, bpp, rows = read_png(argv[1])
        with open(argv[2], encoding="utf-8", errors="replace") as f:
            dom = f.read()
    except (OSError, ValueError, zlib.error) as e:
        print("map_pixels: %s" % e, file=sys.stderr)
        return 2
    bad = 0
    for want in argv[3:]:
        kind, _, colour = want.partition("=")
        match = COLOURS[colour]
        found = marks(dom, kind)
        if not found:
            print("%s: no mark drawn" % kind)
            bad += 1
        for m in found:
            pts = [(int(round(x)), int(round(y))) for x, y in points(m)]
            pts = [(x, y) for x, y in pts if 0 <= x < width and 0 <= y < height]
            hits = sum(1 for x, y in pts if match(*rows[y][x * bpp:x * bpp + 3]))
            share = hits / len(pts) if pts else 0
            print("%s at %s: %d of %d points %s" % (kind, ",".join("%.0f" % v for v in m),
                                                   hits, len(pts), colour))
            if share < 0.7:
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
