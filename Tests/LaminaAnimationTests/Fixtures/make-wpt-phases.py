#!/usr/bin/env python3
"""Writes wpt-phases.json: the cases of WPT's
web-animations/timing-model/animation-effects/phases-and-states.html (phase at a current time)."""
import json

SOURCE = "web-platform-tests/wpt web-animations/timing-model/animation-effects/phases-and-states.html"
cases = [
    ("Phase calculation for a simple animation effect", {"duration": 1}, None,
     [(-1, "before"), (0, "active"), (1, "after")]),
    ("Phase calculation for an animation effect with a positive start delay", {"duration": 1, "delay": 1}, None,
     [(0, "before"), (1, "active"), (2, "after")]),
    ("Phase calculation for an animation effect with a negative start delay", {"duration": 1, "delay": -1}, None,
     [(-2, "before"), (-1, "before"), (0, "after")]),
    ("Phase calculation for an animation effect with a positive end delay", {"duration": 1, "endDelay": 1}, None,
     [(-1, "before"), (0, "active"), (1, "after"), (2, "after")]),
    ("Phase calculation for an animation effect with a negative end delay lesser in magnitude than the active duration",
     {"duration": 2, "endDelay": -1}, None, [(-1, "before"), (0, "active"), (0.9, "active"), (1, "after")]),
    ("Phase calculation for an animation effect with a negative end delay equal in magnitude to the active duration",
     {"duration": 1, "endDelay": -1}, None, [(-1, "before"), (0, "after"), (1, "after")]),
    ("Phase calculation for an animation effect with a negative end delay greater in magnitude than the active duration",
     {"duration": 1, "endDelay": -2}, None, [(-2, "before"), (-1, "before"), (0, "after")]),
    ("Phase calculation for an animation effect with a positive start delay and a negative end delay lesser in magnitude than the active duration",
     {"duration": 2, "delay": 1, "endDelay": -1}, None, [(0, "before"), (1, "active"), (2, "after")]),
    ("Phase calculation for an animation effect with a negative start delay and a negative end delay equal in magnitude to the active duration",
     {"duration": 1, "delay": -1, "endDelay": -1}, None, [(-2, "before"), (-1, "before"), (0, "after")]),
    ("Phase calculation for an animation effect with a negative start delay and a negative end delay equal greater in magnitude than the active duration",
     {"duration": 1, "delay": -1, "endDelay": -2}, None, [(-3, "before"), (-2, "before"), (-1, "before"), (0, "after")]),
    ("Phase calculation for a simple animation effect with negative playback rate", {"duration": 1}, -1,
     [(-1, "before"), (0, "before"), (1, "active"), (2, "after")]),
]
rows = []
for name, inputs, rate, samples in cases:
    for time, phase in samples:
        row = {"source": f"{SOURCE}: {name}", "input": inputs, "currentTime": time, "phase": phase}
        if rate is not None:
            row["playbackRate"] = rate
        rows.append(row)
with open("wpt-phases.json", "w") as f:
    json.dump({"description": "phase at a current time", "rows": rows}, f, indent=1)
print(len(rows), "rows")
