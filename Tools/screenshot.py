#!/usr/bin/env python3
"""The README's picture: `reel ui` in a real tmux, captured with its colours and drawn to PNG.

    python3 Tools/screenshot.py [--reel .build/debug/reel] [--size 160x45] [--keys j,j,j]
                                [--out Sources/Reel/Reel.docc/Resources/reel-ui-movies.png]

Starts `reel ui` on the bundled sample catalog (no credentials; a data directory of its own) in
a detached tmux session of the size asked for, with pictures as Unicode blocks in 24-bit colour
(`REEL_IMAGES=symbols`: what tmux can hold), types the keys given (tmux key names), waits until
the screen stops changing, and captures it with `tmux capture-pane -e` (text and SGR colours).
Each cell is then drawn in DejaVu Sans Mono on the terminal's colours (foreground, background,
bold, dim, reverse, underline; 16, 256 and 24-bit colours) and written as a PNG. Nothing of the
account is kept: the data directory is removed at the end. Needs tmux and Pillow (Debian's
python3-pil, or `pip install pillow`); exits 69 when one is missing, 70 when reel does not draw
its screen within 20 s.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

FONT_PATHS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
]
# The 16 colours of xterm, then the 6x6x6 cube and the grays of the 256-colour palette.
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]
FOREGROUND, BACKGROUND = (220, 220, 220), (24, 24, 28)


def palette(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    gray = 8 + (n - 232) * 10
    return (gray, gray, gray)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.reverse = self.underline = False

    def copy(self):
        other = Style()
        other.__dict__.update(self.__dict__)
        return other

    def apply(self, codes):
        codes = codes or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.reset()
            elif c == 1:
                self.bold = True
            elif c == 2:
                self.dim = True
            elif c == 4:
                self.underline = True
            elif c == 7:
                self.reverse = True
            elif c == 22:
                self.bold = self.dim = False
            elif c == 24:
                self.underline = False
            elif c == 27:
                self.reverse = False
            elif 30 <= c <= 37:
                self.fg = BASE16[c - 30]
            elif 90 <= c <= 97:
                self.fg = BASE16[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = BASE16[c - 40]
            elif 100 <= c <= 107:
                self.bg = BASE16[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(codes):
                target = "fg" if c == 38 else "bg"
                if codes[i + 1] == 5 and i + 2 < len(codes):
                    setattr(self, target, palette(codes[i + 2]))
                    i += 2
                elif codes[i + 1] == 2 and i + 4 < len(codes):
                    setattr(self, target, tuple(codes[i + 2:i + 5]))
                    i += 4
            i += 1


def wide(ch):
    o = ord(ch)
    return (0x1100 <= o <= 0x115F or 0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7A3 or 0xF900 <= o <= 0xFAFF
            or 0xFF00 <= o <= 0xFF60 or 0xFFE0 <= o <= 0xFFE6 or 0x1F300 <= o <= 0x1FAFF)


def cells(capture, width):
    """The capture as rows of (character, style), a wide character followed by None."""
    rows = []
    sgr = re.compile(r"\x1b\[([0-9;:]*)m")
    other = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07\x1b]*(\x07|\x1b\\)|.)")
    style = Style()
    for line in capture.split("\n"):
        row = []
        i = 0
        while i < len(line):
            m = sgr.match(line, i)
            if m:
                style.apply([int(x) if x else 0 for x in re.split("[;:]", m.group(1))] if m.group(1) else [0])
                i = m.end()
                continue
            m = other.match(line, i)
            if m:
                i = m.end()
                continue
            ch = line[i]
            row.append((ch, style.copy()))
            if wide(ch):
                row.append(None)
            i += 1
        rows.append(row[:width])
    return rows


def render(rows, width, height, out, size=16):
    from PIL import Image, ImageDraw, ImageFont

    regular = ImageFont.truetype(FONT_PATHS[0], size)
    bold = ImageFont.truetype(FONT_PATHS[1], size)
    left, top, right, bottom = regular.getbbox("M")
    cw = int(round(regular.getlength("M")))
    ch = int(size * 1.25)
    image = Image.new("RGB", (cw * width + 24, ch * height + 24), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for y in range(height):
        row = rows[y] if y < len(rows) else []
        for x in range(width):
            cell = row[x] if x < len(row) else (" ", Style())
            if cell is None:
                continue
            text, style = cell
            fg, bg = style.fg or FOREGROUND, style.bg or BACKGROUND
            if style.reverse:
                fg, bg = bg, fg
            if style.dim:
                fg = tuple((a + b) // 2 for a, b in zip(fg, bg))
            span = 2 if wide(text) else 1
            x0, y0 = 12 + x * cw, 12 + y * ch
            draw.rectangle([x0, y0, x0 + cw * span - 1, y0 + ch - 1], fill=bg)
            if text in "▀▄█":
                # Block elements fill their cell exactly (a font's glyph leaves gaps between rows).
                half = ch // 2
                if text == "▀":
                    draw.rectangle([x0, y0, x0 + cw - 1, y0 + half - 1], fill=fg)
                elif text == "▄":
                    draw.rectangle([x0, y0 + half, x0 + cw - 1, y0 + ch - 1], fill=fg)
                else:
                    draw.rectangle([x0, y0, x0 + cw - 1, y0 + ch - 1], fill=fg)
            elif text.strip():
                draw.text((x0, y0 + (ch - size) // 2 - top // 2), text, font=bold if style.bold else regular, fill=fg)
            if style.underline:
                draw.line([x0, y0 + ch - 2, x0 + cw * span - 1, y0 + ch - 2], fill=fg)
    image.save(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reel", default=".build/debug/reel")
    parser.add_argument("--size", default="160x45")
    parser.add_argument("--keys", default="j,j", help="tmux key names, comma-separated, typed once the list shows")
    parser.add_argument("--out", default="Sources/Reel/Reel.docc/Resources/reel-ui-movies.png")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    if not shutil.which("tmux"):
        print("screenshot: tmux is not installed", file=sys.stderr)
        return 69
    try:
        import PIL  # noqa: F401
    except ImportError:
        print("screenshot: Pillow is not installed (apt-get install python3-pil, or pip install pillow)", file=sys.stderr)
        return 69
    reel = os.path.abspath(args.reel)
    home = tempfile.mkdtemp(prefix="reel-screenshot-")
    session = f"reel-screenshot-{os.getpid()}"
    env = {k: v for k, v in os.environ.items() if k not in ("TMDB_API_TOKEN", "TMDB_API_KEY", "OMDB_API_KEY", "NO_COLOR")}
    env.update({"REEL_DATA_DIR": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
                "XDG_CACHE_HOME": home + "/cache", "REEL_USER": "ann", "LANG": "C.UTF-8", "COLORTERM": "truecolor",
                "REEL_IMAGES": "symbols", "TERM": "tmux-256color"})
    try:
        # Two titles saved, so the list shows its ★.
        for title in ("550", "603"):
            subprocess.run([reel, "fav", "add", "movie", title], env=env, capture_output=True, check=False)
        subprocess.run(["tmux", "-L", session, "new-session", "-d", "-x", str(width), "-y", str(height), "-s", session,
                        "env " + " ".join(f"{k}='{v}'" for k, v in env.items() if k.startswith(("REEL_", "XDG_", "LANG", "COLORTERM", "TERM")))
                        + f" '{reel}' ui"], env=env, check=True)
        subprocess.run(["tmux", "-L", session, "set-option", "-t", session, "default-terminal", "tmux-256color"], check=False)

        def capture():
            return subprocess.run(["tmux", "-L", session, "capture-pane", "-e", "-p", "-t", session], capture_output=True, text=True).stdout

        def settled(until, seconds=20):
            deadline, last, since = time.time() + seconds, None, time.time()
            while time.time() < deadline:
                now = capture()
                if now != last:
                    last, since = now, time.time()
                elif until(now) and time.time() - since > 0.8:
                    return now
                time.sleep(0.1)
            return None

        if settled(lambda s: "Released" in s) is None:
            print("screenshot: reel ui did not draw its list within 20 s", file=sys.stderr)
            return 70
        for key in filter(None, args.keys.split(",")):
            subprocess.run(["tmux", "-L", session, "send-keys", "-t", session, key], check=True)
        shown = settled(lambda s: "Released" in s)
        if shown is None:
            print("screenshot: the screen did not settle within 20 s", file=sys.stderr)
            return 70
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        render(cells(shown, width), width, height, args.out)
        print(f"{args.out}: {width}x{height} cells")
        return 0
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
