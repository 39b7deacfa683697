"""Judgement calls the printed cards and the FAQ leave open, one named setting each.

Every field's default is the project's reading (see the docs on each field). Scoring
reports which setting decided a player's score when flipping it would change that
score, so a table that reads a card differently can see the difference and re-score.

One setting is read during play instead (:data:`PLAY_SETTINGS`): a game carries it in
its Setup's ``variants``, so the log, the journal and a replay all keep it, and the
log says each time it decided something.

>>> Rulings().gray_double_count
False
>>> Rulings(gray_double_count=True).gray_double_count
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace


@dataclass(frozen=True, slots=True)
class Rulings:
    """The table's settings for the judgement calls; flat, so new ones are simply added."""

    neutral_influence_in_conditions: bool = False
    """The neutral house's Influence (two-seat games) counts in card conditions such as
    "most Influence" (Quietus, Politician, Holo Host, Administrator, Diplomat). It always
    counts in the 4/2/1 ranking, whatever this says."""

    banished_counted_after_finale: bool = True
    """"Banished cards" clauses count the pile after all end-of-game abilities and the
    Ceres banish; False counts the pile as it was when those abilities began (known
    only when the finale was run by :mod:`engine.finale`)."""

    artisan_chef_per_clause: bool = True
    """Artisan Chef ignores each negative clause printed on a Gold separately; False nets
    each Gold's clauses first and ignores only a negative net."""

    artisan_chef_covers_sefi: bool = False
    """Artisan Chef also ignores Sefi's "−5 for each Gold" (a penalty caused by Golds but
    printed on an Obsidian)."""

    gray_double_count: bool = False
    """A Gray with an extra caste may score twice for one "for each X and Y" or
    "different colors" clause (Mess Hall Cook, Mustang, Janitor...)."""

    only_with_accepts_gray_extra: bool = True
    """"Only with …" (Harmony, Alia Snowsparrow) accepts a Gray whose extra caste is
    one of the allowed ones."""

    painter_printed_colors: bool = True
    """4D Painter compares printed castes; False makes a Gray's extra caste clash too."""

    codebreaker_literal_first_character: bool = True
    """Codebreaker reads the literal first character of each (possibly borrowed) name:
    "The Jackal" is T, "4D Painter" is 4. False skips a leading "The " and digits."""

    developer_face_down: bool = True
    """Developer may take the core value of a face-down top card (when it is known)."""

    with_means_other_cards: bool = True
    """"With X" looks at the *other* cards in hand unless the card says it counts itself;
    False lets a card satisfy its own "with" condition (the trap in the errata)."""

    hacker_sees_deck_as_left: bool = True
    """Hacker reveals the deck as the earlier players' end-of-game abilities left it;
    False reveals the deck as it was when the end-of-game abilities began."""

    self_banish_needs_gain: bool = True
    """A deploy ability that gains a card and then banishes its own card (Romulus,
    Darrow, Victra, Cassius, Octavia, Mustang, Lysander, Codebreaker) is ignored whole
    when the gain has nothing to take, and the card stays (the rulebook: "if it's not
    possible to use the deploy ability, ignore the ability"); False reads the banish
    sentence on its own, so the card is banished unless its own condition spares it.
    Aja and Antonia are not of this shape: choosing an opponent is always possible, and
    the multiplayer variant says only the targeting part does nothing."""


SELF_BANISH_ALONE = "self-banish-alone"
"""The Setup variant that plays ``self_banish_needs_gain=False``."""

PLAY_SETTINGS = {"self_banish_needs_gain": SELF_BANISH_ALONE}
"""Settings read during play, each with the variant a game carries when it is flipped."""


def in_play(variants: Iterable[str]) -> Rulings:
    """The rulings a game plays by, from its Setup's variants (the rest at default).

    >>> in_play({SELF_BANISH_ALONE}).self_banish_needs_gain
    False
    """
    chosen, defaults = set(variants), Rulings()
    return replace(defaults, **{name: getattr(defaults, name) != (variant in chosen)
                                for name, variant in PLAY_SETTINGS.items()})


def play_variants(rulings: Rulings) -> tuple[str, ...]:
    """The Setup variants that make a game play by ``rulings``' play-time settings.

    >>> play_variants(Rulings(self_banish_needs_gain=False))
    ('self-banish-alone',)
    """
    defaults = Rulings()
    return tuple(variant for name, variant in PLAY_SETTINGS.items()
                 if getattr(rulings, name) != getattr(defaults, name))


def in_effect(variants: Iterable[str]) -> list[dict[str, object]]:
    """Every setting a game is played and scored by: name, value, what it decides, and
    whether it is read during play (for the page)."""
    rulings = in_play(variants)
    return [{"setting": name, "value": getattr(rulings, name), "text": summary(name),
             "in_play": name in PLAY_SETTINGS} for name in setting_names()]


def setting_names() -> tuple[str, ...]:
    """The names of every setting, in declaration order."""
    return tuple(f.name for f in fields(Rulings))


def summary(name: str) -> str:
    """The first sentence of a setting's documentation (for the scorepad's notes)."""
    doc = _DOCS.get(name, "")
    return doc.split(". ")[0].rstrip(".") if doc else name


def _field_docs() -> dict[str, str]:
    """Attribute docstrings are not kept at run time, so the short texts live here."""
    return {
        "neutral_influence_in_conditions": "whether the neutral house's Influence counts in "
        "card conditions",
        "banished_counted_after_finale": "whether banished cards are counted after the "
        "end-of-game abilities",
        "artisan_chef_per_clause": "whether Artisan Chef ignores each negative Gold clause "
        "separately",
        "artisan_chef_covers_sefi": "whether Artisan Chef also ignores Sefi's penalty",
        "gray_double_count": "whether a Gray with an extra color may score twice for one "
        "clause",
        "only_with_accepts_gray_extra": "whether \"only with\" accepts a Gray through its "
        "extra color",
        "painter_printed_colors": "whether 4D Painter compares printed colors only",
        "codebreaker_literal_first_character": "whether Codebreaker reads the literal first "
        "character",
        "developer_face_down": "whether Developer may take a face-down top card's value",
        "with_means_other_cards": "whether \"with\" means only the other cards in hand",
        "hacker_sees_deck_as_left": "whether Hacker sees the deck as earlier players left it",
        "self_banish_needs_gain": "whether a card's own banish clause is ignored with a gain "
        "that has nothing to take",
    }


_DOCS = _field_docs()
