"""Reference hand scorer: one readable module per ruleset family, citing rule IDs.

:func:`score_hand` checks the tiles and the win situation against a
``Ruleset`` (``mjsim.rules``), reads the hand every way its shape allows
(``mjsim.hand.decompose``) and returns the best :class:`HandScore`.  The
family module is chosen by ``ruleset.family``; every other rule difference
is a ruleset field read inside the family module.
"""

from __future__ import annotations

from mjsim.rules import ruleset as load_ruleset

from . import jipinghu, tuidaohu, xuezhan
from .context import HandScore, read_hand, read_win

__all__ = ["HandScore", "score_hand"]

FAMILIES = {"jipinghu": jipinghu, "tuidaohu": tuidaohu, "xuezhan": xuezhan}


def score_hand(
    ruleset,
    hand,
    *,
    melds=(),
    win_tile=None,
    self_draw: bool = False,
    seat: int = 1,
    round_wind: int = 0,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
    last_tile: bool = False,
    first_turn: bool = False,
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
    discarder pays alone (XZ-M2, XZ-H6) the win earns no 自摸加番 (XZ-H3).  ``wild_kinds``: the wild tile
    kinds, for wild schemes that turn them up in play (TDH-G1 flip, SHT-P3).

    ``ruleset``: a ``Ruleset``, a preset name or a house file path.

    >>> from mjsim.rules import ruleset
    >>> score_hand(ruleset("jipinghu"), "123m456p789s234m11z", self_draw=True).patterns
    ('all_chows', 'self_draw')
    """
    ruleset = load_ruleset(ruleset)
    if ruleset.family == "shuitou":
        raise NotImplementedError("台 scoring for shuitou comes in a later issue")
    if ruleset.family not in FAMILIES:
        raise ValueError(f"no scorer for ruleset family {ruleset.family!r}; families: {sorted(FAMILIES)}")
    held = read_hand(ruleset, hand, melds, win_tile, wild_kinds)
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
