#!/usr/bin/env python3
"""Runs two builds of query-bench interleaved and prints every figure of both side by side.

    Scripts/bench-compare.py BASE_DIR NEW_DIR [--rounds N] [section ...]

BASE_DIR and NEW_DIR are release build folders (each holding `query-bench` and `query`). For
each section, each round runs both builds one after the other, alternating which goes first,
so that both see the same machine. A figure's value is its median over the rounds. The table
gives new / base for every figure and marks those more than 10% worse (higher is better for
rates: units ending in "/s").
"""
import os
import re
import statistics
import subprocess
import sys

NAME_WIDTH, MEASURED_WIDTH = 52, 16
FIGURE_LINE = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<value>[-+]?[0-9][0-9.e+-]*) (?P<unit>\S+)\s+[-+]?[0-9][0-9.e+-]* \S+\s+[0-9][0-9.e+-]*x\b")


def figures(output):
    """The measured value and unit of every figure line of a query-bench output, by name."""
    found = {}
    section = ""
    for line in output.splitlines():
        if line.startswith("== "):
            section = line[3:].split(" (")[0]
            continue
        if line.startswith(" ") or line.startswith("figure"):
            continue
        # name, measured value and unit, baseline value and unit, ratio: a name longer than its
        # column pushes the rest of the line to the right, so the columns are found by shape.
        match = FIGURE_LINE.match(line)
        if not match:
            continue
        found[f"{section}: {match.group('name')}"] = (float(match.group("value")), match.group("unit"))
    return found


def run(folder, section):
    binary = os.path.join(folder, "query-bench")
    result = subprocess.run([binary, section], capture_output=True, text=True, timeout=3600)
    return figures(result.stdout)


def main(arguments):
    rounds = 1
    if "--rounds" in arguments:
        index = arguments.index("--rounds")
        rounds = int(arguments[index + 1])
        del arguments[index:index + 2]
    if len(arguments) < 3:
        sys.exit(__doc__)
    base, new, sections = arguments[0], arguments[1], arguments[2:]
    print(f"{'figure':<78}{'base':>14}{'new':>14}  {'new/base':>8}", flush=True)
    total, worse = 0, 0
    for section in sections:
        values = {"base": {}, "new": {}}
        units = {}
        order = []
        for round_number in range(rounds):
            pair = [("base", base), ("new", new)]
            if round_number % 2:
                pair.reverse()
            for label, folder in pair:
                for name, (number, unit) in run(folder, section).items():
                    values[label].setdefault(name, []).append(number)
                    units[name] = unit
                    if name not in order:
                        order.append(name)
            print(f"# {section}: round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
        # Each section's table as soon as it is measured: a long run shows its figures as it goes.
        for name in order:
            total += 1
            worse += print_figure(name, values, units[name])
    print(f"\n{total} figures; {worse} more than 10% worse", flush=True)


def print_figure(name, values, unit):
    """Prints one figure's line; returns 1 when the new build is more than 10% worse."""
    if name not in values["base"] or name not in values["new"]:
        print(f"{name:<78}{'(only in one build)':>30}", flush=True)
        return 0
    old = statistics.median(values["base"][name])
    now = statistics.median(values["new"][name])
    ratio = now / old if old else float("inf")
    higher_is_better = unit.endswith("/s")
    slower = ratio < 0.9 if higher_is_better else ratio > 1.1
    mark = "  worse by >10%" if slower else ""
    print(f"{name:<78}{old:>10.4g} {unit:<4}{now:>9.4g} {unit:<4}  {ratio:>7.2f}x{mark}", flush=True)
    return 1 if slower else 0


if __name__ == "__main__":
    main(sys.argv[1:])
