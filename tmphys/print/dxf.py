"""DXF cut files (ezdxf): the cut paths of an SVG cut file, for lasers and die cutters that read DXF.

Units are millimetres (``$INSUNITS`` 4, ``$MEASUREMENT`` 1). DXF's y axis points up, so a point (x, y) of
the sheet (y down) is written at (x, height - y): the origin is the sheet's bottom-left corner, the file
shows the sheet as printed, and ``$LIMMIN``/``$LIMMAX`` give its size. Each cut path is one closed
LWPOLYLINE: straight edges as they are, rounded corners as true arcs (bulges), any other curve as short
lines. Holes are on their own layer and come first, outlines last, as cutters take them in file order.
ezdxf's fixed metadata (no dates, no random GUIDs) and its sequential handles make the same input give the
same bytes.

>>> data = cut_dxf(cut_order(placed), Box(0, 0, 210, 297))     # doctest: +SKIP
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable

import ezdxf
from ezdxf.math import Bezier4P, Vec2, bulge_to_arc

from tmphys.art import params as P
from tmphys.art.draw import Box, Shape
from tmphys.art.svg import DECIMALS

#: DXF version written: R2000, the oldest that has ``$INSUNITS``, read by every laser and CAD program.
DXF_VERSION = "R2000"
#: Layers, in cutting order, for the roles of the cut paths.
LAYERS = {"cut-hole": "CUT-HOLES", "cut-outline": "CUT-OUTLINES"}
#: Decimal places of an arc's bulge (the tangent of a quarter of its angle): far below a micrometre.
BULGE_DECIMALS = 9
#: AutoCAD colour index of both layers: 1 is red, ``params.CUT_COLOUR``.
CUT_ACI = 1


def _rounded(p: Vec2) -> Vec2:
    """A point to 0.001 mm, as the SVG cut files write it (and never -0)."""
    return Vec2(round(p.x, DECIMALS) + 0.0, round(p.y, DECIMALS) + 0.0)


def _point(x: float, y: float, frame: Box) -> Vec2:
    """A sheet point (mm, y down) in the DXF's frame (mm, y up from the frame's bottom-left), to 0.001 mm."""
    return _rounded(Vec2(x - frame.x, frame.y + frame.height - y))


def _arc_bulge(p0: Vec2, c1: Vec2, c2: Vec2, p3: Vec2) -> float | None:
    """The bulge of the circular arc a cubic Bézier draws, or None when it draws no arc (within the tolerance)."""
    tangent, chord = c1 - p0, p3 - p0
    if tangent.magnitude == 0 or chord.magnitude == 0:
        return None
    half = math.atan2(tangent.det(chord), tangent.dot(chord))  # half the arc's sweep, signed (+ counter-clockwise)
    if abs(half) < 1e-9 or abs(half) >= math.pi / 2:
        return None
    bulge = math.tan(half / 2)
    centre, _, _, radius = bulge_to_arc(p0, p3, bulge)
    curve = Bezier4P((p0, c1, c2, p3))
    if all(abs((curve.point(t / 8) - centre).magnitude - radius) <= P.DXF_CURVE_TOLERANCE for t in range(1, 8)):
        return bulge
    return None


def _polylines(shape: Shape, dx: float, dy: float, frame: Box) -> list[tuple[list[tuple[float, float, float]], bool]]:
    """Each subpath of a shape moved by (dx, dy) as LWPOLYLINE vertices (x, y, bulge), and whether it closes."""
    out: list[tuple[list[list[float]], bool]] = []
    for cmd in shape.path:
        if cmd[0] == "M":
            out.append(([[*_point(cmd[1] + dx, cmd[2] + dy, frame), 0.0]], False))
        elif cmd[0] == "L":
            out[-1][0].append([*_point(cmd[1] + dx, cmd[2] + dy, frame), 0.0])
        elif cmd[0] == "C":
            vertices = out[-1][0]
            p0 = Vec2(vertices[-1][0], vertices[-1][1])
            c1, c2, p3 = (_point(cmd[k] + dx, cmd[k + 1] + dy, frame) for k in (1, 3, 5))
            bulge = _arc_bulge(p0, c1, c2, p3)
            if bulge is not None:
                vertices[-1][2] = round(bulge, BULGE_DECIMALS)
            else:
                lines = Bezier4P((p0, c1, c2, p3)).flattening(P.DXF_CURVE_TOLERANCE)
                vertices += [[*_rounded(Vec2(v)), 0.0] for v in lines[1:-1]]
            vertices.append([p3.x, p3.y, 0.0])
        else:
            vertices = out[-1][0]
            if len(vertices) > 1 and vertices[-1][:2] == vertices[0][:2]:
                vertices.pop()  # the closing vertex: the previous one's bulge now bends the closing segment
            out[-1] = (vertices, True)
    return [([(x, y, b) for x, y, b in vertices], closed) for vertices, closed in out]


def cut_dxf(paths: Iterable[tuple[Shape, float, float]], frame: Box) -> bytes:
    """A DXF cut file of the cut paths (each moved by its dx, dy) in ``frame`` (the sheet, mm), in the given order."""
    saved = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no creation time, no random GUIDs
    try:
        doc = ezdxf.new(DXF_VERSION, setup=False, units=ezdxf.units.MM)
        for layer in LAYERS.values():
            doc.layers.add(layer, color=CUT_ACI)
        msp = doc.modelspace()
        for shape, dx, dy in paths:
            for vertices, closed in _polylines(shape, dx, dy, frame):
                msp.add_lwpolyline(vertices, format="xyb", close=closed, dxfattribs={"layer": LAYERS[shape.role]})
        msp.reset_limits((0.0, 0.0), (round(frame.width, DECIMALS), round(frame.height, DECIMALS)))  # the sheet
        text = io.StringIO()
        doc.write(text)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = saved
    return text.getvalue().encode(doc.output_encoding)
