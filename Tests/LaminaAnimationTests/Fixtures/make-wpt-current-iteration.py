#!/usr/bin/env python3
"""Writes wpt-current-iteration.json: the rows of WPT's
web-animations/timing-model/animation-effects/current-iteration.html as data (inputs,
playback rate, expected currentIteration before / at the active boundary / after; null where
the file expects none; "Infinity" for infinity). Sampling as in WPT's effect-tests.js.
"""
import json

INF = float("inf")
SOURCE = "web-platform-tests/wpt web-animations/timing-model/animation-effects/current-iteration.html"
rows = []

def add(group, inputs, before, active, after, rate=None):
    row = {"source": f"{SOURCE}: {group}", "input": inputs, "before": before, "activeBoundary": active, "after": after}
    if rate is not None:
        row["playbackRate"] = rate
    rows.append(row)

for iterations, group, table in [
    (0, "Test zero iterations", [(0, 0, 0, None, 0), (0, 100, 0, None, 0), (0, INF, 0, None, 0),
                                 (2.5, 0, 2, None, 2), (2.5, 100, 2, None, 2), (2.5, INF, 2, None, 2),
                                 (3, 0, 3, None, 3), (3, 100, 3, None, 3), (3, INF, 3, None, 3)]),
    (3, "Test integer iterations", [(0, 0, 0, None, 2), (0, 100, 0, 0, 2), (0, INF, 0, 0, None),
                                    (2.5, 0, 2, None, 5), (2.5, 100, 2, 2, 5), (2.5, INF, 2, 2, None),
                                    (3, 0, 3, None, 5), (3, 100, 3, 3, 5), (3, INF, 3, 3, None)]),
    (3.5, "Test fractional iterations", [(0, 0, 0, None, 3), (0, 100, 0, 0, 3), (0, INF, 0, 0, None),
                                         (2.5, 0, 2, None, 5), (2.5, 100, 2, 2, 5), (2.5, INF, 2, 2, None),
                                         (3, 0, 3, None, 6), (3, 100, 3, 3, 6), (3, INF, 3, 3, None)]),
    (INF, "Test infinity iterations", [(0, 0, 0, None, INF), (0, 100, 0, 0, None), (0, INF, 0, 0, None),
                                       (2.5, 0, 2, None, INF), (2.5, 100, 2, 2, None), (2.5, INF, 2, 2, None),
                                       (3, 0, 3, None, INF), (3, 100, 3, 3, None), (3, INF, 3, 3, None)]),
]:
    for start, duration, before, active, after in table:
        add(group, {"iterations": iterations, "iterationStart": start, "duration": duration, "delay": 1, "fill": "both"},
            before, active, after)

for inputs, before, active, after in [
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": 50}, 0, 0, 0),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 0, 0, 0),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 0),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -200}, 0, 0, 0),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": 50}, 0, 0, 1),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 0, 0, 1),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 0),
    ({"iterations": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 1),
    ({"iterations": 1, "iterationStart": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 2, 2, 2),
    ({"iterations": 1, "iterationStart": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 2, 2, 2),
]:
    add("Test end delay", inputs, before, active, after)

add("Test negative playback rate", {"duration": 1, "delay": 1, "fill": "both"}, 0, 0, 0, rate=-1)
add("Test negative playback rate", {"duration": 1, "delay": 1, "iterations": 2, "fill": "both"}, 0, 1, 1, rate=-1)
add("Test negative playback rate", {"duration": 0, "delay": 1, "fill": "both"}, 0, None, 0, rate=-1)
add("Test negative playback rate", {"duration": 0, "iterations": 0, "delay": 1, "fill": "both"}, 0, None, 0, rate=-1)

def encode(v):
    return "Infinity" if isinstance(v, float) and v == INF else v

for row in rows:
    row["input"] = {k: encode(v) for k, v in row["input"].items()}
    for k in ("before", "activeBoundary", "after"):
        row[k] = encode(row[k])
with open("wpt-current-iteration.json", "w") as f:
    json.dump({"description": "currentIteration before / at the active boundary / after, per WPT effect-tests.js sampling",
               "rows": rows}, f, indent=1)
print(len(rows), "rows")
