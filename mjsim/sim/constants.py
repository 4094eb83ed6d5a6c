"""Named constants of the simulator: actions, decisions, phases, meld kinds, win kinds.

One action space serves every decision (see ``N_ACTIONS``); a decision row's
legal mask says which actions apply.
"""

# actions ------------------------------------------------------------------
DISCARD = 0  # DISCARD + t: discard tile kind t
CKONG = 34  # CKONG + t: concealed kong 暗杠 of kind t
AKONG = 68  # AKONG + t: added kong 补杠 of kind t onto one's own exposed pung
WIN = 102  # self-draw on one's turn, win on a discard, or rob a kong
PASS = 103
PUNG = 104
KONG = 105  # exposed kong 明杠 from a discard
CHOW_LOW = 106  # the discard is the lowest tile of the chow
CHOW_MID = 107
CHOW_HIGH = 108
VOID_SUIT = 109  # VOID_SUIT + c: declare suit c (0 m, 1 p, 2 s) void (XZ-H2 定缺)
N_ACTIONS = 112

# decisions ----------------------------------------------------------------
TURN = 0  # own turn after a draw (or after a pung/chow): win, kongs, discard
RESPONSE = 1  # another player's discard: win, pung, kong, chow, pass
ROB = 2  # another player's added kong: win (抢杠) or pass
EXCHANGE = 3  # XZ-H1 换三张: pick a tile to pass (DISCARD + t), three picks of one suit
VOID = 4  # XZ-H2 定缺: name the void suit (VOID_SUIT + c)

# melds (kind codes in the engine and the logs) -----------------------------
MELD_NONE = 0
MELD_CHOW = 1
MELD_PUNG = 2
MELD_KONG = 3  # exposed kong: from a discard, or added onto a pung
MELD_CKONG = 4  # concealed kong
MELD_NAMES = ("", "chow", "pung", "kong", "ckong")

# how a kong was made (for payments and 包杠) -------------------------------
KONG_FROM_DISCARD = 1
KONG_ADDED = 2
KONG_CONCEALED = 3
KONG_KIND_NAMES = ("", "discard", "added", "concealed")

# win kinds (log column win_kind) ------------------------------------------
WIN_SELF_DRAW = 0
WIN_DISCARD = 1
WIN_KONG_REPLACEMENT = 2
WIN_ROBBED_KONG = 3
WIN_KIND_NAMES = ("self_draw", "discard", "kong_replacement", "robbed_kong")

NO_SEAT = -1
NO_TILE = -1
MAX_MELDS = 5  # 16-tile hands make five sets
MAX_WALL = 144
