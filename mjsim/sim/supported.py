"""Which rulesets the engine plays, checked without loading the engine (a run refuses the rest at once)."""

from __future__ import annotations

from mjsim.rules import Ruleset

SUPPORTED_FAMILIES = ("jipinghu", "tuidaohu", "xuezhan", "shuitou")


def check_supported(ruleset) -> None:
    """The engine plays these families so far; say so clearly for the rest."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"expected a Ruleset (e.g. mjsim.ruleset({ruleset!r})), got {ruleset!r}")
    if ruleset.family not in SUPPORTED_FAMILIES:
        raise NotImplementedError(
            f"the simulator plays {', '.join(SUPPORTED_FAMILIES)} so far; {ruleset.family!r} "
            f"({ruleset.name}) comes in a later issue"
        )
    later = {
        "tile_set=144 (flowers) outside the shuitou family": ruleset.tile_set == 144 and ruleset.family != "shuitou",
        "white_is_flower=true outside the shuitou family": ruleset.white_is_flower and ruleset.family != "shuitou",
        "hand_size=16 outside the shuitou family": ruleset.hand_size == 16 and ruleset.family != "shuitou",
        "hand_size=13 in the shuitou family (its scorer reads five sets and a pair, SHT-P2)": (
            ruleset.hand_size != 16 and ruleset.family == "shuitou"
        ),
        "wild_scheme=flip_two_kinds / flip_kind (财神) outside the shuitou family": (
            ruleset.wild_scheme in ("flip_two_kinds", "flip_kind") and ruleset.family != "shuitou"
        ),
        "the shuitou family with another wild_scheme than flip_two_kinds / flip_kind / none (SHT-P3)": (
            ruleset.family == "shuitou" and ruleset.wild_scheme not in ("flip_two_kinds", "flip_kind", "none")
        ),
        "bloody=true (血战到底) outside the xuezhan family": ruleset.bloody and ruleset.family != "xuezhan",
        "bloody_flow=true (血流成河) outside the xuezhan family": ruleset.bloody_flow and ruleset.family != "xuezhan",
        "wild tiles in a jipinghu ruleset": ruleset.family == "jipinghu" and ruleset.wild_scheme != "none",
        "big hands together with wild tiles": bool(ruleset.big_hands) and ruleset.wild_scheme != "none",
    }
    for what, used in later.items():
        if used:
            raise NotImplementedError(f"the simulator does not play {what} yet ({ruleset.name}); a later issue adds it")
