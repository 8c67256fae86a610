"""The end of an attack in words, for the coach: how it ended, where its beaten cards go,
and what the table tidies up by hand (feasts aside, the hand drawn back to 5, the holes
filled from the supply). ``attack.finish_attack`` keeps the facts in ``state["tidy"]``."""

from __future__ import annotations

from ..text import Sentence, plural_sentence


def ended(tidy: dict) -> Sentence:
    """How the attack ended and where its beaten cards go."""
    player, count = tidy["player"], tidy["cards"]
    if tidy["how"] == "boar" and tidy.get("fourth"):
        return plural_sentence(
            "The wild boar, the fourth card of the line, breaks the formation but ends %(player)s's attack: "
            "no further attack. It leaves the game, and %(count)s beaten card goes onto %(player)s's "
            "secured pile.",
            "The wild boar, the fourth card of the line, breaks the formation but ends %(player)s's attack: "
            "no further attack. It leaves the game, and %(count)s beaten cards go onto %(player)s's "
            "secured pile.", count, player=player)
    if tidy["how"] == "boar":
        if count:
            return plural_sentence(
                "The wild boar ended %(player)s's attack: it leaves the game, and %(count)s beaten card "
                "goes onto %(player)s's secured pile.",
                "The wild boar ended %(player)s's attack: it leaves the game, and %(count)s beaten cards "
                "go onto %(player)s's secured pile.", count, player=player)
        return Sentence("The wild boar ended %(player)s's attack at once: it leaves the game, and "
                        "nothing was beaten before it.", player=player)
    if tidy["how"] == "failed":
        if count:
            return plural_sentence(
                "%(player)s's attack failed: %(count)s beaten card leaves the game, and the card that "
                "stopped the attack lies face down again.",
                "%(player)s's attack failed: %(count)s beaten cards leave the game, and the card that "
                "stopped the attack lies face down again.", count, player=player)
        return Sentence("%(player)s's attack failed before a card was beaten: the card that stopped "
                        "it lies face down again.", player=player)
    if count:
        return plural_sentence(
            "%(player)s ended the attack: %(count)s beaten card goes onto %(player)s's secured pile.",
            "%(player)s ended the attack: %(count)s beaten cards go onto %(player)s's secured pile.",
            count, player=player)
    return Sentence("%(player)s ended the attack without a beaten card.", player=player)


def step_list(tidy: dict) -> list[Sentence]:
    """The tidying up after an attack, each step the table does by hand."""
    steps = []
    if tidy["feasts"]:
        steps.append(plural_sentence("lay the village feast beside the formation",
                                     "lay the %(count)s village feasts beside the formation",
                                     tidy["feasts"]))
    if tidy["draw"]:
        steps.append(draw_words(tidy))
    if tidy["filled"]:
        steps.append(plural_sentence("put %(count)s supply card into the holes of the formation",
                                     "put %(count)s supply cards into the holes of the formation",
                                     tidy["filled"]))
    if tidy["open"]:
        steps.append(plural_sentence("leave the hole open: the supply is empty",
                                     "leave the %(count)s holes open: the supply is empty", tidy["open"]))
    return steps


def steps(tidy: dict) -> Sentence | None:
    steps = step_list(tidy)
    return Sentence("%(player)s: %(steps)s.", player=tidy["player"], steps=steps) if steps else None


def draw_words(plan: dict) -> Sentence:
    """Drawing back to 5 fight cards, with the discards made a new draw pile when it runs out."""
    if not plan["draw"]:
        return Sentence("keep your 5 fight cards")
    if not plan["reshuffle"]:
        return plural_sentence("draw %(count)s fight card to have 5 again",
                               "draw %(count)s fight cards to have 5 again", plan["draw"])
    more = plan["draw"] - plan["from_pile"]
    if not plan["from_pile"]:
        return plural_sentence("your draw pile is empty: shuffle your discarded fight cards into a new "
                               "draw pile and draw %(count)s",
                               "your draw pile is empty: shuffle your discarded fight cards into a new "
                               "draw pile and draw %(count)s", more)
    return plural_sentence("draw the last card of your draw pile, shuffle your discarded fight cards "
                           "into a new draw pile and draw %(more)s more",
                           "draw the %(count)s cards left in your draw pile, shuffle your discarded "
                           "fight cards into a new draw pile and draw %(more)s more",
                           plan["from_pile"], more=more)
