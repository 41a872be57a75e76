#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""text_safe.py MODE FILE... - what no hostile string may do to an output.

Every mode refuses, anywhere in the file: a control byte (C0 but LF, and TAB
unless the mode allows it as a separator), DEL, a byte of no valid UTF-8
sequence, a C1 control (U+0080-U+009F), a bidi control (U+061C, U+200E,
U+200F, U+202A-U+202E, U+2066-U+2069) and a line or paragraph separator
(U+2028, U+2029).  Then, by MODE:

  log     every line is one of ibsmd's: "YYYY-MM-DD HH:MM:SS.mmm ibsmd[PID]
          LEVEL: ..." (a forged line does not start so); no TAB
  text    smquery's columns: no TAB
  tabbed  a file format with TAB separators (ibnetdiscover, Graphviz)
  json    one JSON document (json.loads), no TAB outside strings' escapes
  prom    the Prometheus text format: comments and "name{labels} value"
          lines, every label value a quoted string with \\ \" \\n escapes
  html    the map page: no TAB check, and "</script" only as the page's own
          (as many times as "<script" opens)

Prints one line per fault ("FILE:LINE: what") and exits 1 on any.
"""
import json
import re
import sys

UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f"
                    "\u202a-\u202e\u2066-\u2069\u2028\u2029]")
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} ibsmd\[\d+\] "
                      r"(emerg|alert|crit|error|warning|notice|info|debug): ")
PROM_LINE = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*'
                       r'(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})?'
                       r' [-+0-9.eE]+(Inf|NaN)?( -?\d+)?')


def check(mode, path):
    faults = []
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ["%s: invalid UTF-8 at byte %d" % (path, e.start)]
    tab_ok = mode in ("tabbed", "html")
    for no, line in enumerate(text.split("\n"), 1):
        m = UNSAFE.search(line.replace("\t", "") if tab_ok else line)
        if m:
            faults.append("%s:%d: raw U+%04X in %r" % (path, no, ord(m.group()), line[:80]))
        if mode == "log" and line and not LOG_LINE.match(line):
            faults.append("%s:%d: not a log line of ibsmd's: %r" % (path, no, line[:80]))
        if mode == "prom" and line and not line.startswith("#") and \
                not PROM_LINE.fullmatch(line):
            faults.append("%s:%d: not a sample line: %r" % (path, no, line[:80]))
    if mode == "json":
        try:
            json.loads(text)
        except ValueError as e:
            faults.append("%s: not one JSON document: %s" % (path, e))
    if mode == "html" and text.count("</script") != text.count("<script"):
        faults.append("%s: %d '</script' for %d '<script'" %
                      (path, text.count("</script"), text.count("<script")))
    return faults


def main(argv):
    if len(argv) < 3 or argv[1] not in ("log", "text", "tabbed", "json", "prom", "html"):
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    faults = [f for path in argv[2:] for f in check(argv[1], path)]
    for f in faults:
        print(f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
