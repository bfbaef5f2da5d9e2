"""Every print parameter of the homemade set, named, in millimetres (colours as ``#rrggbb``).

Card sizes that belong to a card design come from the ``Layout``; everything here is about
printing, cutting and the look of the faces. Drawing code uses these names, never bare numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from tmphys.lang.fit import MIN_TEXT_SIZE

#: Millimetres per PostScript point's inverse: one millimetre is this many points.
PT_PER_MM = 72.0 / 25.4

# --- paper --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paper:
    """A sheet size (portrait), in mm."""

    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}

#: Unprinted border every desktop printer can reach (mm on each side).
PRINTABLE_MARGIN = 5.0
#: Least paper left between two neighbouring cards' cut paths on a sheet, after the kerf: the cards never
#: share a cut line (a laser would burn it twice, a drag knife tear it) and no cut enters another card.
#: The gutter between two cards is at least this plus the kerf (and at least twice the bleed).
CUT_CLEARANCE = 0.5
#: Gutter between two cards on a sheet where the paper has room for it without losing a card: crop marks
#: of neighbouring cards stay apart and a knife or guillotine has room between two cards.
SHEET_GUTTER = 3.0

# --- crop marks and the scale ruler ----------------------------------------------------------------
CROP_MARK_LENGTH = 3.0
CROP_MARK_OFFSET = 1.0        # gap between the card's edge (or its bleed) and the crop mark
CROP_MARK_WIDTH = 0.15
RULER_LENGTH = 100.0          # printed scale ruler; measure it to check the printer did not scale
RULER_MINOR_TICK = 1.0        # one tick per millimetre
RULER_TICK_SHORT = 1.5
RULER_TICK_MEDIUM = 2.5       # every 5 mm
RULER_TICK_LONG = 3.5         # every 10 mm
RULER_STROKE = 0.15
RULER_LABEL_SIZE = 2.4        # text height of the figures under the long ticks
RULER_AREA = 9.0              # height reserved at the foot of every sheet for the ruler and its note
RULER_INSET = 1.0             # from the printable margin to the ruler's 0, so its label stays inside the margin
SHEET_NOTE_SIZE = 2.6

# --- bleed, kerf, back offset limits ----------------------------------------------------------------
MAX_BLEED = 5.0
MAX_KERF = 2.0
MAX_BACK_OFFSET = 10.0
#: Largest distance between a cut path's curve and the arc (or short lines) a DXF cut file draws in its place.
DXF_CURVE_TOLERANCE = 0.005

# --- line widths ------------------------------------------------------------------------------------
HAIRLINE = 0.01               # cut path stroke: a hairline that laser and plotter drivers read as "cut"
CUT_GUIDE_WIDTH = 0.12        # printed cut line on sheets, for knife or scissors
ART_STROKE = 0.25             # outlines on card art (alignment marks on punch cards, tick boxes)

# --- colours ----------------------------------------------------------------------------------------
CUT_COLOUR = "#ff0000"
CUT_GUIDE_COLOUR = "#606060"
CROP_COLOUR = "#000000"
INK = "#222222"               # ordinary text
PAPER_WHITE = "#ffffff"
ALIGNMENT_FILL = "#222222"

# --- result marks: ✓ and ✗ (verification cards, the player aid, stack pictures, the pages in a browser) -------
#: ✓ and ✗ differ in lightness as well as in hue, so a greyscale print or a colour-blind player tells them apart by
#: the fill alone: ✓ a light fill under a dark glyph, ✗ a dark fill under a white one. Every pair (the two fills,
#: each fill and its glyph) keeps at least ``MIN_MARK_CONTRAST`` of luminance contrast, in colour, in greyscale and
#: under simulated protanopia, deuteranopia and tritanopia (tests/test_marks.py measures it on the printed files).
PASS_FILL = "#8fd19e"         # a ✓ cell is filled whole with this
PASS_GLYPH = "#0f3d1d"        # the ✓ drawn on top of it
FAIL_FILL = "#9b1c1c"         # a ✗ cell is filled whole with this
FAIL_GLYPH = "#ffffff"        # the ✗ drawn on top of it
#: The least luminance contrast (WCAG 2.1's ratio, (L1 + 0.05) / (L2 + 0.05)) between the marks' colours.
MIN_MARK_CONTRAST = 3.0


@dataclass(frozen=True)
class MarkInk:
    """How one result mark is printed: the cell's fill and the glyph on it (``#rrggbb``)."""

    glyph_char: str
    fill: str
    glyph: str


#: The two result marks, by the name a stack reads (``pass``/``fail``): one place for every view of them.
MARKS: dict[str, MarkInk] = {"pass": MarkInk("✓", PASS_FILL, PASS_GLYPH), "fail": MarkInk("✗", FAIL_FILL, FAIL_GLYPH)}

#: How much ink a build lays down: ``full`` fills cells and cards whole; ``low`` (home printers) draws the same
#: geometry with outlines and patterns: ✓ cells outlined, ✗ cells hatched, card tints left out.
INKS = ("full", "low")
LOW_INK_OUTLINE = 0.3         # the outline of a ✓ cell, and of a card whose tint is left out
LOW_INK_HATCH_PITCH = 1.0     # between the hatch lines of a ✗ cell (mm, across the lines)
LOW_INK_HATCH_WIDTH = 0.25
LOW_INK_GLYPH = {"pass": PASS_GLYPH, "fail": FAIL_FILL}  # the glyphs on white paper

#: Strong colour of each code colour (shapes ▲■●, tabs).
CODE_INK: dict[str, str] = {"blue": "#2f6fc4", "yellow": "#e0a800", "purple": "#8447b0"}
#: Light tint printed over the whole body of a punch card of that colour.
CARD_TINT: dict[str, str] = {"blue": "#d6e4f6", "yellow": "#f9ecbf", "purple": "#e6daf0"}
#: Colour of each printed ID on a verification card's back.
ID_INK: dict[str, str] = {"green": "#2e9d4a", "yellow": "#d39e00", "blue": "#2f6fc4", "purple": "#8447b0"}
CRITERIA_TINT = "#f3efe6"     # background of a criteria card
CRITERIA_RULE = "#b9b09c"     # thin rules between criteria on a criteria card
BACK_TINT = "#efefef"         # background of a verification card's back

# --- text and symbols (heights in mm: the font's em size) --------------------------------------------
TAB_VALUE_SIZE = 6.0          # the value on a punch card's tab
TAB_SHAPE_SIZE = 3.2
PUNCH_LABEL_SIZE = 5.0        # "▲ 2" on the punch card's top strip
PUNCH_NAME_SIZE = 3.0         # "blue" under it
MARK_GLYPH_SCALE = 0.62       # ✓/✗ size as a share of the smaller mark side
BACK_TITLE_SIZE = 3.4
FRONT_ID_SIZE = 2.4           # the four IDs along a verification card front's top edge
FRONT_ID_MIN_SIZE = 1.6       # shrunk to fit between the alignment marks, never below this
FRONT_ID_EDGE = 2.0           # from the card's top edge to the top of the IDs' figures
FRONT_ID_GAP = 0.9            # between two IDs, as a share of their size
FRONT_ID_CLEARANCE = 1.0      # from the IDs to an alignment mark or a rounded corner
BACK_ID_SIZE = 8.0
BACK_BOX_SIZE = 7.0           # tick box side
BACK_BOX_GAP = 2.0
BACK_LETTER_SIZE = 3.6
CRITERIA_CARD_WIDTH = 63.5
CRITERIA_CARD_HEIGHT = 88.0
CRITERIA_CORNER_RADIUS = 3.0
CRITERIA_PADDING = 4.0
CRITERIA_NUMBER_SIZE = 9.0
CRITERIA_TITLE_SIZE = 3.4
CRITERIA_TEXT_SIZE = 4.0
CRITERIA_LINE_GAP = 1.25      # line height as a multiple of the text size
TAB_CORNER_RADIUS = 1.5
FOOTER_SIZE = 2.0             # "tmphys classic · punch card" in a card's bottom strip
FOOTER_INK = "#6b6b6b"
#: No word a player reads is set smaller than MIN_TEXT_SIZE (lang/fit.py, imported above); parts name their own floor.
CAP_HEIGHT = 0.73             # height of a capital or digit, as a share of the em (to centre text)
CRITERIA_ROW_GAP = 0.7        # space between two criteria, as a multiple of the text size
CRITERIA_MIN_TEXT_SIZE = 2.2  # never shrink a criterion's text below this
BACK_TITLE_AT = 0.14          # where things sit on a verification card's back, as shares of its height
BACK_IDS_AT = 0.30
BACK_ID_LINE = 1.35           # line height of the IDs, as a multiple of their size
BACK_BOXES_AT = 0.76
#: The verifier letters a verification card's back has a tick box for.
VERIFIER_LETTERS = ("A", "B", "C", "D", "E", "F")
PREVIEW_MARGIN = 2.0          # white border around a preview image
RING_INK = "#111111"          # the ring a stack's picture draws around the open cell
RING_WIDTH = 0.5
RING_HALO = 0.3               # a white line either side of the ring, so it shows on any mark
RING_GAP = 0.6                # from the hole's corner to the ring

# --- card backs (punch and criteria cards) ------------------------------------------------------------
CRITERIA_BACK_TINT = "#e4dccb"     # background of a criteria card's back
CRITERIA_BACK_FRAME_INSET = 3.5    # the thin frame inside a criteria card's back, from its edge
CRITERIA_BACK_SHAPE_SIZE = 11.0    # ▲ ■ ● across the middle of a criteria card's back
CRITERIA_BACK_TITLE_SIZE = 5.0
CRITERIA_BACK_SUBTITLE_SIZE = 3.2

# --- duplex registration marks (in the ruler strip of every sheet that has backs) ----------------------
#: Fronts print a cross; backs print, at its mirror image, a scale in mm: held to the light, the cross shows on the
#: scale at the back offset to give (``--back-offset DX,DY``), whatever offset the sheet was printed with.
REG_CROSS_ARM = 2.5                # half the cross's span
REG_SCALE_REACH = 4.0              # the scale's ticks run from −this to +this mm, one a RULER_MINOR_TICK
REG_TICK = 0.7                     # a tick's length (every mm)
REG_TICK_LONG = 1.3                # at 0 and every even mm
REG_STROKE = 0.1                   # thinner than the ruler's, so the two are never read as one
REG_LABEL_SIZE = 1.4
REG_HALF_WIDTH = 7.0               # room either side of the mark's centre for the scale and its figures
REG_GAP = 3.0                      # between the ruler and the mark, and between the mark and the note
NOTE_MIN_SIZE = 1.8                # a note shrinks to leave room for the mark, never below this

# --- note sheets (note-sheets.pdf: two to a page, each half a sheet) -----------------------------------
NOTE_ROUNDS = 8                    # lines for rounds on a note sheet (the game rarely runs past 7)
NOTE_ROW = 7.0                     # height of a round's line: room for a pencilled digit or ✓/✗
NOTE_CELL = 7.0                    # side of a digit box (▲ ■ ●) and of a verifier's ✓/✗ box
NOTE_DIGIT_CELL = 7.5              # side of a cell of the digit grid (cross off 1–5 per colour)
NOTE_HEADER = 9.0                  # height of the title line with the problem's number
NOTE_GAP = 3.0                     # between the blocks of a note sheet
NOTE_CUT_GAP = 5.0                 # either side of the cut line between the two sheets of a page
NOTE_TITLE_SIZE = 4.2
NOTE_LABEL_SIZE = 3.0
NOTE_SMALL_SIZE = 2.3
NOTE_LINE = 0.3                    # box strokes
NOTE_RULE = 0.15                   # writing lines
NOTE_INK = "#333333"
NOTE_RULE_INK = "#9a9a9a"
NOTE_VERIFIER_MIN_HEIGHT = 24.0    # a verifier's space for deductions, at the least
NOTE_VERIFIER_LINE = 6.0           # spacing of the writing lines in a verifier's space

# --- player aid (player-aid.pdf: a landscape sheet folded in three to stand as a screen) ---------------
AID_PANELS = 3                     # folded in three: two panels stand, the third leans back as a foot
AID_PADDING = 7.0                  # inside a panel, from its edges and folds
AID_TITLE_SIZE = 6.0
AID_HEAD_SIZE = 4.6
AID_TEXT_SIZE = 3.7
AID_LINE_GAP = 1.3                 # line height as a multiple of the text size
AID_PARA_GAP = 2.2                 # extra space between paragraphs
AID_SAMPLE_CELL = 9.0              # the ✓ and ✗ cells drawn to show how a stack reads
AID_MAX_SCALE = 1.6                # a panel's text grows up to this much to fill its panel
AID_MIN_SCALE = MIN_TEXT_SIZE / NOTE_SMALL_SIZE  # and shrinks at most this much (a longer language)
FOLD_DASH = 2.0                    # dash and gap of a printed fold line
FOLD_GAP = 1.5
FOLD_INK = "#8a8a8a"
FOLD_WIDTH = 0.2

# --- machine board (machine-board.pdf: verifier places A–F and the punch cards' places, tiled over sheets) ---
BOARD_SLOT_MARGIN = 1.0            # a card's place is this much larger than the card on every side
BOARD_GAP = 2.5                    # between a verifier's card places, and between places
BOARD_LABEL = 8.0                  # the strip above a place for its letter or colour
BOARD_LETTER_SIZE = 6.5
BOARD_TEXT_SIZE = 3.0
BOARD_TILE_COLUMNS = 2             # the board's sheets are laid this many side by side
BOARD_INK = "#444444"              # a place's outline
BOARD_SLOT_INK = "#2f6fc4"         # a card's place inside it
BOARD_LINE = 0.35
BOARD_TRIM_INK = "#b0b0b0"         # a sheet's trim line: cut along it and lay the sheets edge to edge
BOARD_MARK = 5.0                   # the half-diamonds on shared edges that make whole diamonds when aligned
BOARD_MARK_CLEARANCE = 0.5         # from a half-diamond to the nearest place (places keep this far in from a sheet's
                                   # edge, past a half-diamond's reach) and to the ruler strip
BOARD_MARK_FILL = "#999999"

# --- punch cards: how many a build prints ---------------------------------------------------------------------
#: Copies of each of the 15 punch cards a build prints by default. One set runs the machine for a whole table:
#: every player's proposal is stacked with the same 15 cards, and the tray and the board hold one set. More copies
#: are spares, or a second machine for a second table (``tmphys build --copies N``).
PUNCH_COPIES = 1

# --- punch-card holder (cut files: a base and two combs that slot into it) -------------------------------------------
HOLDER_THICKNESS = 3.0             # default thickness of the board the holder is cut from (mm)
MAX_HOLDER_THICKNESS = 6.0
PUNCH_CARD_THICKNESS = 0.35        # one printed punch card (card stock), for the slot a colour's five stand in
HOLDER_SLOT_PLAY = 1.0             # extra width of a slot for five cards to slide in and out
HOLDER_WALL = 15.0                 # board between two slots (room for fingers), and at a comb's ends
HOLDER_COMB_HEIGHT = 45.0          # a comb's height above the base
HOLDER_NOTCH_SHARE = 0.5           # a notch reaches this share of the comb's height down
HOLDER_OVERHANG = 8.0              # how far a card reaches past each comb
HOLDER_TAB = 12.0                  # length of a comb's tab that locks in the base's slot
HOLDER_BASE_MARGIN = 8.0           # base plate around the combs
HOLDER_PART_GAP = 6.0              # between parts on the cut sheet

# --- the index of the cards (index.pdf: every ID to its sheet and place) ------------------------------------------
INDEX_MARGIN = 5.0                 # inside the printable margin
INDEX_TITLE_SIZE = 5.0
INDEX_HEAD_SIZE = 3.6
INDEX_TEXT_SIZE = 2.8
INDEX_LINE = 1.35                  # line height as a multiple of the text size
INDEX_GAP = 3.0                    # between the sections
INDEX_COLUMN_GAP = 6.0
INDEX_FOOTER = 6.0                 # the strip at the page's foot for its number

# --- problem booklet (tmphys booklet: real text in an embedded subset of the cards' font) ---------------
BOOK_MARGIN = 15.0                 # page margin of the booklet
BOOK_TITLE_PT = 18.0               # text sizes in points, as a word processor says them
BOOK_HEAD_PT = 11.5
BOOK_TEXT_PT = 9.5
BOOK_SMALL_PT = 7.5
BOOK_LINE = 1.35                   # line height as a multiple of the text size
BOOK_COLUMN = 24.0                 # width of a verifier's column in a problem's table
BOOK_LABEL_COLUMN = 46.0           # width of the table's row labels
BOOK_PROBLEM_GAP = 7.0             # between two problems
BOOK_RULE_INK = "#c8c8c8"
BOOK_ANSWER_COLUMNS = 4            # answers per row in the answers section
BOOK_ANSWER_ROW = 11.0

# --- fold-up paper tray (holder-tray.pdf: the punch cards' holder for those with only a printer) ---------------
TRAY_WALL_HEIGHT = 40.0            # the tray's walls and dividers, at most (mm)
TRAY_REVEAL = 25.0                 # at least this much of a punch card (with its tab) stands above the walls
TRAY_MIN_WALL = 15.0               # lower walls would not hold the cards upright: no tray for such short cards
TRAY_CLEARANCE = 3.0               # room added to a punch card's width across a compartment and to five cards' depth
TRAY_CARD_ALLOWANCE = 0.5          # depth one punch card takes in a compartment (card stock, a little warped)
TRAY_GLUE_TAB = 8.0                # width of a glue tab (a divider's foot: at most a compartment's depth)
TRAY_TAB_TAPER = 3.0               # a glue tab's ends slant in by this, clearing its neighbours as it folds
TRAY_PIECE_GAP = 6.0               # between pieces on a sheet
TRAY_LABEL_SIZE = 3.0              # "▲ blue" on a compartment's floor
TRAY_TEXT_SIZE = 2.4               # "glue", "fold", a piece's name
TRAY_TEXT_INSET = 2.0              # text from a panel's edge
TRAY_GLUE_TINT = "#e2e2e2"         # a glue tab's fill
TRAY_GUIDE_INK = "#9a9a9a"         # where a divider stands, on the floor and the side walls
TRAY_GUIDE_WIDTH = 0.15
TRAY_MARK = 6.0                    # half-diamonds on a split net's two edges: whole diamonds when aligned
TRAY_MARK_FILL = "#999999"
TRAY_LINE_GAP = 1.3                # line height of the sheet's instructions, as a multiple of the text size
