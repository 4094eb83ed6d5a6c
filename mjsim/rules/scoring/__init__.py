"""Reference hand scorer: one readable module per ruleset family, citing rule IDs.

:func:`score_hand` checks the tiles and the win situation against a
``Ruleset`` (``mjsim.rules``), reads the hand every way its shape allows
(``mjsim.hand.decompose``) and returns the best :class:`HandScore`.  The
family module is chosen by ``ruleset.family``; every other rule difference
is a ruleset field read inside the family module.
"""

from __future__ import annotations

from mjsim.rules import ruleset as load_ruleset

from . import jipinghu, shuitou, tuidaohu, xuezhan
from .context import HandScore, read_hand, read_win

__all__ = ["HandScore", "base_tai", "score_hand"]

FAMILIES = {"jipinghu": jipinghu, "tuidaohu": tuidaohu, "xuezhan": xuezhan, "shuitou": shuitou}


def score_hand(
    ruleset,
    hand,
    melds=(),
    flowers=(),
    wilds=(),
    win_tile=None,
    self_draw: bool = False,
    seat: int = 1,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
    first_turn: bool = False,
    split_tile: bool = False,
    *,
    round_wind: int = 0,
    last_tile: bool = False,
    discard_winners: int = 1,
    after_kong_discard: bool = False,
    wild_kinds=None,
    kong_from_discard: bool = False,
) -> HandScore:
    """Score one win under ``ruleset``; ``ValueError`` (with the reason) if it is not a win there.

    ``hand``: concealed tiles including the winning tile, notation or tile ids;
    ``win_tile`` defaults to the last tile written.  ``melds``: strings such as
    ``"pung:5z"``, ``"chow:123m"``, ``"kong:9p"``, ``"ckong:1z"`` in declaration
    order (the last kong is the one a kong replacement win follows).
    ``seat``: offset from the dealer (0 = dealer, seat wind 1z + seat);
    ``round_wind``: 0-3.  ``first_turn``: the 天和/地和/人和 situation.
    ``discard_winners``: players winning on this discard (3 = 一炮三响, JPH-S1).
    ``after_kong_discard``: 杠上炮 (XZ-F2).  ``kong_from_discard``: the kong a
    kong-replacement win follows was made from a discard (直杠); where its
    discarder pays alone (XZ-M2, XZ-H6) the win earns no 自摸加番 (XZ-H3).  ``wilds`` (alias
    ``wild_kinds``): the wild tile kinds as notation (``["3m", "7z"]``), for wild schemes that turn
    them up in play (TDH-G1 flip, SHT-P3 财神).

    Shuitou (SHT-T, :mod:`.shuitou`): ``flowers`` the flowers set aside (``["1f", "5z"]``),
    ``split_tile`` a win on a 分牌 tile (SHT-P7, also a self-draw); ``points`` and ``fan`` are
    the total 台 after doubling, ``base_tai`` its base part and ``assignment`` what each held
    财神 stood for.  ``round_wind``, ``last_tile``, ``after_kong_discard`` and
    ``kong_from_discard`` score nothing there.

    ``ruleset``: a ``Ruleset``, a preset name or a house file path.

    >>> from mjsim.rules import ruleset
    >>> score_hand(ruleset("jipinghu"), "123m456p789s234m11z", self_draw=True).patterns
    ('all_chows', 'self_draw')
    >>> score_hand(ruleset("shuitou"), "123m456m789m234p567p77z", flowers=["1f"], wilds=["3s"]).fan_detail
    (('flowers', 2), ('special_pair', 1), ('hard', 7))
    """
    ruleset = load_ruleset(ruleset)
    if ruleset.family not in FAMILIES:
        raise ValueError(f"no scorer for ruleset family {ruleset.family!r}; families: {sorted(FAMILIES)}")
    kinds = _wild_kinds_argument(wilds, wild_kinds)
    if ruleset.family == "shuitou":
        if discard_winners != 1:
            raise ValueError(f"discard_winners={discard_winners!r}: only the first player in turn wins (SHT-P5)")
        return shuitou.score_hand(
            ruleset,
            hand,
            melds,
            flowers,
            kinds,
            win_tile,
            self_draw,
            seat,
            kong_replacement,
            robbed_kong,
            first_turn,
            split_tile,
        )
    if flowers:
        raise ValueError(f"flowers={flowers!r}: only the shuitou family scores flowers (SHT-T1)")
    if split_tile:
        raise ValueError("split_tile (a win on a 分牌 tile) is a shuitou situation (SHT-P7)")
    held = read_hand(ruleset, hand, melds, win_tile, kinds)
    win = read_win(
        ruleset,
        held,
        self_draw=self_draw,
        seat=seat,
        round_wind=round_wind,
        kong_replacement=kong_replacement,
        robbed_kong=robbed_kong,
        last_tile=last_tile,
        first_turn=first_turn,
        discard_winners=discard_winners,
        after_kong_discard=after_kong_discard,
        kong_from_discard=kong_from_discard,
    )
    return FAMILIES[ruleset.family].score(ruleset, held, win)


def _wild_kinds_argument(wilds, wild_kinds):
    """``wilds`` and its alias ``wild_kinds``: the one given (None when neither is)."""
    given = wilds is not None and not (not isinstance(wilds, str) and hasattr(wilds, "__len__") and len(wilds) == 0)
    if given and wild_kinds is not None and wilds != wild_kinds:
        raise ValueError(f"wilds={wilds!r} and wild_kinds={wild_kinds!r} differ: give one of them")
    return wilds if given else wild_kinds


def base_tai(ruleset, hand, melds=(), flowers=(), wilds=(), seat: int = 1) -> int:
    """A shuitou non-winner's base 台 (SHT-T1; a 财神 may pair a single special tile); never doubled.

    ``hand``: the concealed tiles, 3 x (5 - melds) + 1 of them (+ 2 on that seat's turn);
    ``flowers``, ``wilds``, ``seat`` as for :func:`score_hand`.

    >>> from mjsim.rules import ruleset
    >>> base_tai(ruleset("shuitou"), "123m456m789m234p56p7z3s", melds=(), wilds=["3s"])
    3
    """
    ruleset = load_ruleset(ruleset)
    if ruleset.family != "shuitou":
        raise ValueError(f"base 台 is a shuitou notion (SHT-T1); ruleset {ruleset.name!r} is {ruleset.family}")
    return shuitou.base_tai(ruleset, hand, melds, flowers, wilds, seat)
