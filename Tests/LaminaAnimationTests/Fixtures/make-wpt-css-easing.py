#!/usr/bin/env python3
"""Writes wpt-css-easing.json: the rows of WPT's css/css-easing output tests as data.

Step rows carry the literal pixel values asserted in the WPT file. Cubic rows assert against
WPT's reference cubicBezier with tangent extrapolation; their expected values are computed
here, independently of Lamina, by bisection to double precision (behaviour.md rule 89).
Run it from this directory: python3 make-wpt-css-easing.py
"""
import json

def bezier(x1, y1, x2, y2):
    def coord(s, a, b):
        return 3 * (1 - s) ** 2 * s * a + 3 * (1 - s) * s * s * b + s ** 3
    def inside(p):
        if p <= 0 or p >= 1:
            return 0.0 if p <= 0 else 1.0     # the end points themselves
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if coord(mid, x1, x2) < p: lo = mid
            else: hi = mid
        return coord((lo + hi) / 2, y1, y2)
    def f(p):
        if p < 0:
            if x1 > 0: slope = y1 / x1
            elif y1 == 0 and x2 > 0: slope = y2 / x2
            else: slope = 0.0
            return slope * p
        if p > 1:
            if x2 < 1: slope = (y2 - 1) / (x2 - 1)
            elif y2 == 1 and x1 < 1: slope = (y1 - 1) / (x1 - 1)
            else: slope = 0.0
            return 1 + slope * (p - 1)
        return inside(p)
    return f

SOURCE = "web-platform-tests/wpt css/css-easing/cubic-bezier-timing-functions-output.html"
rows = []
cubic_tests = [
    ("cubic-bezier easing with input progress greater than 1", (0, 1.5, 1, 1.5), (0.5, 1, 0.5, 0), [0, 230, 240, 700, 990, 1000]),
    ("cubic-bezier easing with input progress greater than 1 and where the tangent on the upper boundary is infinity",
     (0, 1.5, 1, 1.5), (0, 1.5, 1, 1.5), [0, 230, 240, 700, 990, 1000]),
    ("cubic-bezier easing with input progress less than 0", (0, -0.5, 1, -0.5), (0.5, 1, 0.5, 0), [0, 10, 300, 750, 770, 1000]),
    ("cubic-bezier easing with input progress less than 0 and where the tangent on the lower boundary is infinity",
     (0, -0.5, 1, -0.5), (0, -0.5, 1, -0.5), [0, 10, 300, 750, 770, 1000]),
]
for name, effect, keyframe, times in cubic_tests:
    e, k = bezier(*effect), bezier(*keyframe)
    for t in times:
        rows.append({"source": f"{SOURCE}: {name}", "effect": list(effect), "keyframe": {"cubicBezier": list(keyframe)},
                     "timeMs": t, "durationMs": 1000, "expectedLeft": 100 * k(e(t / 1000)), "tolerance": 0.01})

STEPS = "web-platform-tests/wpt css/css-easing/step-timing-functions-output.html"
step_tests = [
    ("step-start easing with input progress greater than 1", (0, 1.5, 1, 1.5), "step-start", [(0, 100), (230, 100), (250, 200), (1000, 100)]),
    ("step-start easing with input progress greater than 2", (0, 3, 1, 3), "step-start", [(0, 100), (114, 200), (500, 300), (900, 200)]),
    ("step-start easing with input progress less than 0", (0, -0.5, 1, -0.5), "step-start", [(0, 100), (750, 0), (800, 100), (1000, 100)]),
    ("step-start easing with input progress less than -1", (0, -2, 1, -2), "step-start", [(0, 100), (100, 0), (500, -100), (1000, 100)]),
    ("step-end easing with input progress greater than 1", (0, 1.5, 1, 1.5), "step-end", [(0, 0), (230, 0), (250, 100), (1000, 100)]),
    ("step-end easing with input progress greater than 2", (0, 3, 1, 3), "step-end", [(0, 0), (114, 100), (500, 200), (900, 100)]),
    ("step-end easing with input progress less than 0", (0, -0.5, 1, -0.5), "step-end", [(0, 0), (750, -100), (800, 0), (1000, 100)]),
    ("steps(1, jump-both) easing with input progress greater than 1", (0, 1.5, 1, 1.5), "steps(1, jump-both)",
     [(0, 50), (230, 50), (250, 100), (1000, 100)]),
    ("steps(1, jump-both) easing with input progress greater than 2", (0, 3, 1, 3), "steps(1, jump-both)",
     [(0, 50), (114, 100), (500, 150), (900, 100)]),
    ("steps(1, jump-both) easing with input progress less than 0", (0, -0.5, 1, -0.5), "steps(1, jump-both)",
     [(0, 50), (750, 0), (800, 50), (1000, 100)]),
    ("steps(2, jump-none) easing with input progress greater than 1", (0, 1.5, 1, 1.5), "steps(2, jump-none)",
     [(0, 0), (45, 100), (230, 100), (250, 200), (1000, 100)]),
    ("steps(2, jump-none) easing with input progress greater than 2", (0, 3, 1, 3), "steps(2, jump-none)",
     [(0, 0), (114, 300), (500, 400), (900, 300)]),
    ("steps(2, jump-none) easing with input progress less than 0", (0, -0.5, 1, -0.5), "steps(2, jump-none)",
     [(0, 0), (750, -100), (800, 0), (1000, 100)]),
]
for name, effect, keyframe, samples in step_tests:
    for t, left in samples:
        rows.append({"source": f"{STEPS}: {name}", "effect": list(effect), "keyframe": {"steps": keyframe},
                     "timeMs": t, "durationMs": 1000, "expectedLeft": left, "tolerance": 0})

with open("wpt-css-easing.json", "w") as f:
    json.dump({"description": "Rows of WPT css-easing output tests: left = 100 px x keyframe(effect(t / duration)).",
               "rows": rows}, f, indent=1)
print(len(rows), "rows")
