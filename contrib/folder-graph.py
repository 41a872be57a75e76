#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""folder-graph.py - the include graph between the project's folders, checked.

Reads every C source and header under mad/, db/, routing/ and sm/ (tests and
contrib are left out), takes each quoted #include that names a folder
("sm/core/sm.h", "ibsmd/routing.h"), and draws one edge per pair of folders.

  folder-graph.py [--check] [--text] [SRCDIR]

--text prints the graph, one folder a line with the folders it includes
(DESIGN.md carries this output); --check fails (exit 1, one line per fault)
on:
  - an include from a folder to one of the same or a higher floor: FLOORS
    below gives each folder its floor, so every edge goes down and no two
    folders can include each other in a loop;
  - a folder that is not in FLOORS (a new folder must be placed);
  - a loop of includes between the files of one folder, unless the headers
    in it say why (a comment with "include loop:");
  - smquery (sm/smquery/) including anything of the daemon (sm/ outside it).
"""
import os
import re
import sys

# The floor of each folder: a folder includes only folders on lower floors.
FLOORS = {
    "routing/ibsmd": 0,	# the public routing API: plugins build against it alone
    "mad/model": 1,		# the fabric model: libc only
    "mad": 2,		# the wire: codecs, transports, rpc
    "db": 2,		# the store: the model, never the wire
    "mad/sim": 3,		# the simulated fabric: a transport
    "routing": 3,		# routing engines and their checks
    "sm/smquery": 4,	# the client: the store, the model, routing; not the daemon
    "sm/util": 4,		# the daemon's tools: nothing of an SM
    "sm/core": 5,		# the ground: struct sm, workers, state, fabric, config
    "sm/repair": 6,		# AR tables and the fast repair of a dead link
    "sm/jobs": 6,		# the batch scheduler's jobs and their routes
    "sm/osm": 9,		# OpenSM's files: opensm.conf, qos-policy.conf converted (reads sm/sa), guid2lid
    "sm/cc": 6,		# congestion control after a heavy sweep
    "sm/ha": 7,		# other SMs, traps
    "sm/sa": 8,		# the SA, partitions, multicast
    "sm/telemetry": 8,	# PerfMgt, isolation, rebalancing
    "sm/sweep": 9,		# the heavy and the light sweep
    "sm": 10,		# the life cycle: owns and drives every subsystem
}
AREAS = ("mad", "db", "routing", "sm")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top):
    for area in AREAS:
        for root, _, files in os.walk(os.path.join(top, area)):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    path = os.path.join(root, name)
                    yield os.path.relpath(path, top)


def resolve(top, inc):
    """The repository path of an include, or None (system or generated)."""
    for base in ("", "routing/"):
        if os.path.isfile(os.path.join(top, base + inc)):
            return base + inc
    return None


def main(argv):
    check = "--check" in argv
    text = "--text" in argv
    args = [a for a in argv if not a.startswith("--")]
    top = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    edges = {}		# (from folder, to folder) -> count
    files = {}		# file -> files of its own folder it includes
    faults = []
    said_why = set()	# folders whose headers explain an include loop
    for path in sources(top):
        src = open(os.path.join(top, path), encoding="utf-8", errors="replace").read()
        folder = os.path.dirname(path)
        if "include loop:" in src:
            said_why.add(folder)
        files.setdefault(path, [])
        for inc in INCLUDE.findall(src):
            target = resolve(top, inc)
            if not target or "/" not in inc:
                continue
            to = os.path.dirname(target)
            if to == folder:
                files[path].append(target)
            else:
                edges[(folder, to)] = edges.get((folder, to), 0) + 1
    for (a, b), n in sorted(edges.items()):
        for f in (a, b):
            if f not in FLOORS:
                faults.append("folder %s has no floor in contrib/folder-graph.py" % f)
        if a in FLOORS and b in FLOORS and FLOORS[b] >= FLOORS[a]:
            faults.append("%s includes %s (%d times): floor %d may not include floor %d"
                          % (a, b, n, FLOORS[a], FLOORS[b]))
        if a == "sm/smquery" and b.startswith("sm"):
            faults.append("smquery includes the daemon's %s" % b)
    faults += file_loops(files, said_why)
    if text:
        print_graph(edges)
    if check:
        for f in sorted(set(faults)):
            print("folder-graph: " + f)
        return 1 if faults else 0
    return 0


def file_loops(files, said_why):
    """Include loops between the files of one folder."""
    faults, state = [], {}

    def visit(f, stack):
        state[f] = 1
        for g in files.get(f, []):
            if state.get(g) == 1:
                loop = stack[stack.index(g):] + [g]
                if os.path.dirname(g) not in said_why:
                    faults.append("include loop: " + " -> ".join(loop))
            elif g not in state:
                visit(g, stack + [g])
        state[f] = 2

    for f in sorted(files):
        if f not in state:
            visit(f, [f])
    return faults


def print_graph(edges):
    out = {}
    for (a, b) in edges:
        out.setdefault(a, set()).add(b)
    for f in sorted(FLOORS, key=lambda x: (-FLOORS[x], x)):
        below = sorted(out.get(f, ()), key=lambda x: (-FLOORS.get(x, -1), x))
        print("%2d %-13s -> %s" % (FLOORS[f], f, ", ".join(below) if below else "(nothing)"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
