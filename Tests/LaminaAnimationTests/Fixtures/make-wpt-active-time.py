#!/usr/bin/env python3
"""Writes wpt-active-time.json: the cases of WPT's
web-animations/timing-model/animation-effects/active-time.html as rows: timing input, the local
time sampled (a number, or "end" for animation.finish(), which seeks to the end time), the
expected progress (null = unresolved) and, where asserted, the current iteration.
"""
import json

SOURCE = "web-platform-tests/wpt web-animations/timing-model/animation-effects/active-time.html"
INF = "Infinity"
rows = []

def add(name, inputs, local, progress, iteration=None):
    row = {"source": f"{SOURCE}: {name}", "input": inputs, "localTime": local, "progress": progress}
    if iteration is not None:
        row["currentIteration"] = iteration
    rows.append(row)

for fill, progress in [("none", None), ("backwards", 0), ("forwards", None), ("both", 0)]:
    add("Active time in before phase", {"delay": 1, "fill": fill}, 0, progress)
add("Active time in active phase and no start delay is the local time", {"duration": 1000}, 500, 0.5)
add("Active time in active phase and positive start delay is the local time minus the start delay",
    {"duration": 1000, "delay": 500}, 1000, 0.5)
add("Active time in active phase and negative start delay is the local time minus the start delay",
    {"duration": 1000, "delay": -500}, 0, 0.5)
add("Active time in after phase with no fill is unresolved", {}, 0, None)
add("Active time in after phase with backwards-only fill is unresolved", {"fill": "backwards"}, 0, None)
add("Active time in after phase with forwards fill is the active duration",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "fill": "forwards"}, "end", 0.3, 2)
add("Active time in after phase with forwards fill, zero-duration, and infinite iteration count is the active duration",
    {"duration": 0, "iterations": INF, "fill": "forwards"}, "end", 1, INF)
add("Active time in after phase with forwards fill and positive end delay is the active duration",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "endDelay": 4000, "fill": "forwards"}, "end", 0.3, 2)
add("Active time in after phase with forwards fill and negative end delay is the active duration + end delay",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "endDelay": -800, "fill": "forwards"}, "end", 0.5, 1)
add("Active time in after phase with forwards fill and negative end delay greater in magnitude than the active duration is zero",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "endDelay": -2500, "fill": "forwards"}, "end", 0, 0)
add("Active time in after phase with forwards fill and negative end delay greater in magnitude than the sum of the active duration and start delay is zero",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "endDelay": -4000, "fill": "forwards"}, "end", 0, 0)
add("Active time in after phase with 'both' fill is the active duration",
    {"duration": 1000, "iterations": 2.3, "delay": 500, "fill": "both"}, "end", 0.3, 2)

with open("wpt-active-time.json", "w") as f:
    json.dump({"description": "progress (and currentIteration) at a local time; 'end' = animation.finish()",
               "rows": rows}, f, indent=1)
print(len(rows), "rows")
