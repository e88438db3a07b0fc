#!/usr/bin/env python3
"""Writes wpt-simple-iteration-progress.json: the rows of WPT's
web-animations/timing-model/animation-effects/simple-iteration-progress.html as data
(inputs, playback rate, and the expected progress before, at the active boundary and after;
null where the file expects none). Sample times follow WPT's effect-tests.js helper.
"""
import json

INF = float("inf")
SOURCE = "web-platform-tests/wpt web-animations/timing-model/animation-effects/simple-iteration-progress.html"
rows = []

def add(group, inputs, before, active, after, rate=None):
    row = {"source": f"{SOURCE}: {group}", "input": inputs, "before": before, "activeBoundary": active, "after": after}
    if rate is not None:
        row["playbackRate"] = rate
    rows.append(row)

for iterations, group, table in [
    (0, "Test zero iterations", [(0, 0, 0, None, 0), (0, 100, 0, None, 0), (0, INF, 0, None, 0),
                                 (2.5, 0, 0.5, None, 0.5), (2.5, 100, 0.5, None, 0.5), (2.5, INF, 0.5, None, 0.5),
                                 (3, 0, 0, None, 0), (3, 100, 0, None, 0), (3, INF, 0, None, 0)]),
    (3, "Test integer iterations", [(0, 0, 0, None, 1), (0, 100, 0, 0, 1), (0, INF, 0, 0, None),
                                    (2.5, 0, 0.5, None, 0.5), (2.5, 100, 0.5, 0.5, 0.5), (2.5, INF, 0.5, 0.5, None),
                                    (3, 0, 0, None, 1), (3, 100, 0, 0, 1), (3, INF, 0, 0, None)]),
    (3.5, "Test fractional iterations", [(0, 0, 0, None, 0.5), (0, 100, 0, 0, 0.5), (0, INF, 0, 0, None),
                                         (2.5, 0, 0.5, None, 1), (2.5, 100, 0.5, 0.5, 1), (2.5, INF, 0.5, 0.5, None),
                                         (3, 0, 0, None, 0.5), (3, 100, 0, 0, 0.5), (3, INF, 0, 0, None)]),
    (INF, "Test infinity iterations", [(0, 0, 0, None, 1), (0, 100, 0, 0, None), (0, INF, 0, 0, None),
                                       (2.5, 0, 0.5, None, 0.5), (2.5, 100, 0.5, 0.5, None), (2.5, INF, 0.5, 0.5, None),
                                       (3, 0, 0, None, 1), (3, 100, 0, 0, None), (3, INF, 0, 0, None)]),
]:
    for start, duration, before, active, after in table:
        add(group, {"iterations": iterations, "iterationStart": start, "duration": duration, "delay": 1, "fill": "both"},
            before, active, after)

for inputs, before, active, after in [
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": 50}, 0, 0, 1),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 0, 0, 0.5),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 0),
    ({"duration": 100, "delay": 1, "fill": "both", "endDelay": -200}, 0, 0, 0),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": 50}, 0.5, 0.5, 0.5),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 0.5, 0.5, 0),
    ({"iterationStart": 0.5, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0.5, 0.5, 0.5),
    ({"iterations": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 0),
    ({"iterations": 1, "iterationStart": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -50}, 0, 0, 0.5),
    ({"iterations": 1, "iterationStart": 2, "duration": 100, "delay": 1, "fill": "both", "endDelay": -100}, 0, 0, 0),
]:
    add("Test end delay", inputs, before, active, after)

add("Test negative playback rate", {"duration": 1, "delay": 1, "fill": "both"}, 0, 1, 1, rate=-1)
add("Test negative playback rate", {"duration": 0, "delay": 1, "fill": "both"}, 0, None, 1, rate=-1)
add("Test negative playback rate", {"duration": 0, "iterations": 0, "delay": 1, "fill": "both"}, 0, None, 0, rate=-1)

def encode(v):
    if isinstance(v, float) and v == INF:
        return "Infinity"
    return v

for row in rows:
    row["input"] = {k: encode(v) for k, v in row["input"].items()}
with open("wpt-simple-iteration-progress.json", "w") as f:
    json.dump({"description": "progress before / at the active boundary / after, per WPT effect-tests.js sampling",
               "rows": rows}, f, indent=1)
print(len(rows), "rows")
