"""Abilities that move cards; a move is never a deploy."""

from __future__ import annotations

import pytest
from abilities_support import (
    I,
    J,
    L,
    M,
    at,
    gain_is_next,
    hand,
    lead,
    pick,
    play,
    seat,
    stack,
    table,
    tokens,
    tracked,
    turn_of,
    values,
)

from engine.board import Location
from engine.decisions import Kind
from engine.errors import IllegalActionError
from engine.events import Choose, Decline, GainFrom, Lead, SetLocation
from engine.game import Game


def _push_off(card: str, below: str, reward: tuple[int, int, int]) -> None:
    """Deployed on a matching card: it moves to another location and the reward comes."""
    game = table([[card], ["judge"]], [["deanna", below], [], [], []])
    lead(game, card, J)
    assert at(J) not in game.legal_actions()
    play(game, at(L))
    assert stack(game, J) == ["deanna", card] and stack(game, L) == [below]
    assert tokens(game) == reward
    assert not any(c.kind == "deploy" and c.card == below for c in game.state.changes)
    other = table([[card], ["judge"]], [["deanna"], [], [], []])
    lead(other, card, J)  # on a Red: nothing happens
    assert stack(other, J) == ["deanna", card] and tokens(other) == (0, 0, 0)


def test_artisan_chef_moves_a_gold_off_and_places_influence() -> None:
    _push_off("artisan-chef", "lorn", (0, 1, 0))


def test_gardener_moves_a_violet_or_pink_off_and_gains_helium() -> None:
    _push_off("gardener", "zanzibar", (1, 0, 0))


def test_janitor_moves_a_green_yellow_or_blue_off_and_advances() -> None:
    _push_off("janitor", "pelus", (0, 0, 1))


def test_mess_hall_cook_moves_a_gray_or_orange_off_and_advances() -> None:
    _push_off("mess-hall-cook", "trigg", (0, 0, 1))


def test_nanny_moves_a_silver_white_or_copper_off_and_gains_helium() -> None:
    _push_off("nanny", "lawyer", (1, 0, 0))


def _pull_under(card: str, wanted: str) -> None:
    """A matching card from any location goes directly under the Gray; gaining it ends."""
    game = table([[card], ["judge"]], [["lorn"], ["deanna", wanted, "eo"], [], []])
    lead(game, card, J)
    play(game, pick(wanted, M, 1))
    assert stack(game, J) == ["lorn", wanted, card] and stack(game, M) == ["deanna", "eo"]
    play(game, Choose("gain"))
    assert hand(game) == (wanted,) and turn_of(game) == 1
    kept = table([[card], ["judge"]], [["lorn"], ["deanna", wanted, "eo"], [], []])
    lead(kept, card, J)
    play(kept, pick(wanted, M, 1), Decline())
    assert stack(kept, J) == ["lorn", wanted, card] and gain_is_next(kept)
    none = table([[card], ["judge"]], [["helga" if wanted != "helga" else "lorn"], [], [], []])
    lead(none, card, J)
    assert gain_is_next(none)


def test_bridge_pulls_a_pink_or_violet_under_itself() -> None:
    _pull_under("bridge", "zanzibar")


def test_colonel_valentin_pulls_a_gold_under_itself() -> None:
    game = table([["colonel-valentin"], ["judge"]], [["aja", "lorn"], [], [], []])
    lead(game, "colonel-valentin", J)  # from this very location, past the card between
    play(game, pick("aja", J, 0))
    assert stack(game, J) == ["lorn", "aja", "colonel-valentin"]
    _pull_under("colonel-valentin", "aja")


def test_danto_pulls_a_copper_or_white_under_itself() -> None:
    _pull_under("danto", "lawyer")


def test_holiday_pulls_an_orange_or_blue_under_itself() -> None:
    _pull_under("holiday", "pelus")


def test_sun_hwa_pulls_an_obsidian_or_green_under_itself() -> None:
    _pull_under("sun-hwa", "helga")


def test_trigg_pulls_a_gray_or_yellow_under_itself() -> None:
    _pull_under("trigg", "pathologist")


def test_ugly_dan_pulls_a_red_or_brown_under_itself() -> None:
    _pull_under("ugly-dan", "nanny")


def test_matteo_moves_another_card_here_and_a_pink_earns_influence() -> None:
    game = table([["matteo"], ["judge"]], [["evey", "lorn"], [], [], []])
    lead(game, "matteo", J)
    assert values(game) == {"evey", "lorn"}
    play(game, pick("evey", J, 0), at(I))
    assert stack(game, I) == ["evey"] and tokens(game) == (0, 1, 0)
    plain = table([["matteo"], ["judge"]], [["lorn"], [], [], []])
    lead(plain, "matteo", J)
    play(plain, at(M))  # the only other card is taken at once
    assert stack(plain, M) == ["lorn"] and tokens(plain) == (0, 0, 0)
    alone = table([["matteo"], ["judge"]])
    lead(alone, "matteo", J)
    assert gain_is_next(alone)


def test_garden_trained_rose_moves_the_card_under_and_a_silver_earns_helium() -> None:
    game = table([["garden-trained-rose"], ["judge"]], [["lorn", "ceo"], [], [], []])
    lead(game, "garden-trained-rose", J)
    play(game, at(M))
    assert stack(game, M) == ["ceo"] and tokens(game) == (1, 0, 0)
    alone = table([["garden-trained-rose"], ["judge"]])
    lead(alone, "garden-trained-rose", J)
    assert gain_is_next(alone)


def test_musician_moves_a_card_with_an_even_core_value() -> None:
    game = table([["musician"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(game, "musician", J)
    assert values(game) == {"lorn", "musician"}  # 20 and 8; Deanna's 9 is odd
    play(game, pick("musician", J, 2), at(L))  # it may move itself
    # Moved by its own ability, it still counts as deployed to Jupiter: no gain there.
    assert stack(game, L) == ["musician"] and GainFrom(J) not in game.legal_actions()


def test_zanzibar_moves_a_card_with_an_odd_core_value() -> None:
    game = table([["zanzibar"], ["judge"]], [["lorn", "deanna"], [], [], []])
    lead(game, "zanzibar", J)
    assert values(game) == {"deanna", "zanzibar"}
    play(game, pick("deanna", J, 1), at(M))
    assert stack(game, J) == ["lorn", "zanzibar"] and stack(game, M) == ["deanna"]


def test_4d_painter_moves_a_card_where_its_color_is_absent() -> None:
    game = table([["4d-painter"], ["judge"]],
                 [["deanna"], ["eo"], ["lorn"], ["zanzibar"]])
    lead(game, "4d-painter", J)
    assert values(game) == {"deanna", "4d-painter"}
    play(game, pick("deanna", J, 0))
    assert values(game) == {"luna", "institute"}  # Mars holds a Red already
    play(game, at(L))
    assert stack(game, L) == ["lorn", "deanna"]
    blocked = table([["4d-painter"], ["judge"]], [[], ["zanzibar"], ["musician"], ["vlogger"]])
    lead(blocked, "4d-painter", J)  # a Violet everywhere else; no other card here
    assert gain_is_next(blocked)


def test_masseuse_moves_a_top_card_and_takes_its_old_location_bonus() -> None:
    game = table([["masseuse"], ["judge"]], [[], ["deanna"], [], ["lorn"]])
    lead(game, "masseuse", J)
    assert values(game) == {"mars", "institute"}
    play(game, at(I))
    assert at(I) not in game.legal_actions()  # to a different location
    play(game, at(J))
    assert stack(game, J) == ["masseuse", "lorn"] and tokens(game) == (0, 1, 0)
    empty = table([["masseuse"], ["judge"]])
    lead(empty, "masseuse", J)
    assert gain_is_next(empty)


def test_the_telemanuses_move_every_card_below_in_order() -> None:
    game = table([["the-telemanuses"], ["judge"]], [["deanna", "lorn"], [], ["eo"], []])
    lead(game, "the-telemanuses", J)
    play(game, at(L))
    assert stack(game, J) == ["the-telemanuses"] and stack(game, L) == ["eo", "deanna", "lorn"]
    alone = table([["the-telemanuses"], ["judge"]])
    lead(alone, "the-telemanuses", J)
    assert gain_is_next(alone)


def test_theodora_may_pull_the_bottom_card_up_and_gain_a_gold_or_red() -> None:
    game = table([["theodora"], ["judge"]], [["lorn", "pelus"], [], [], []])
    lead(game, "theodora", J)
    play(game, at(J))
    assert hand(game) == ("lorn",) and stack(game, J) == ["pelus", "theodora"]
    assert turn_of(game) == 1
    blue = table([["theodora"], ["judge"]], [["pelus", "lorn"], [], [], []])
    lead(blue, "theodora", J)
    play(blue, at(J))
    assert stack(blue, J) == ["lorn", "theodora", "pelus"] and gain_is_next(blue)
    declined = table([["theodora"], ["judge"]], [["lorn"], [], [], []])
    lead(declined, "theodora", J)
    play(declined, Decline())
    assert stack(declined, J) == ["lorn", "theodora"]


def test_conversationalist_takes_a_top_card_under_itself_and_gains_a_white() -> None:
    game = table([["conversationalist"], ["judge"]], [["lorn"], ["martyr"], ["eo"], []])
    lead(game, "conversationalist", J)
    play(game, pick("martyr", M, 0))
    assert hand(game) == ("martyr",) and stack(game, J) == ["lorn", "conversationalist"]
    red = table([["conversationalist"], ["judge"]], [[], ["eo"], [], []])
    lead(red, "conversationalist", J)
    assert stack(red, J) == ["eo", "conversationalist"] and hand(red) == ()


def _asked(game: Game) -> tuple[Kind, int | None, str]:
    assert game.pending is not None
    return game.pending.kind, game.pending.player, game.pending.prompt


def _face_down_at(game: Game, location: Location, index: int) -> None:
    """The card at ``index`` there turned face down (as Firewall Expert leaves one)."""
    cards = tuple(s.card for s in game.state.stack_at(location))
    game.push(SetLocation(location, cards, face_down=tuple(i == index for i in range(len(cards)))))


def test_the_move_questions_are_asked_in_each_cards_own_words() -> None:
    """Each card asks its own question: push-offs, pull-unders, Matteo's pick and where
    to, Masseuse's two, The Telemanuses' and Theodora's."""
    chef = table([["artisan-chef"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(chef, "artisan-chef", J)
    assert _asked(chef) == (Kind.CHOOSE, 0, "P1: move the card below to which location?")
    colonel = table([["colonel-valentin"], ["judge"]], [["deanna"], ["lorn"], [], []])
    lead(colonel, "colonel-valentin", J)
    assert _asked(colonel) == (Kind.TARGET, 0, "P1: move which card under colonel-valentin?")
    play(colonel, pick("lorn", M, 0))
    assert _asked(colonel) == (Kind.CHOOSE, 0, "P1: gain that card and end your turn?")
    matteo = table([["matteo"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(matteo, "matteo", J)
    assert _asked(matteo) == (Kind.TARGET, 0, "P1: move which card?")
    play(matteo, pick("deanna", J, 0))
    assert _asked(matteo) == (Kind.CHOOSE, 0, "P1: move deanna to which location?")
    masseuse = table([["masseuse"], ["judge"]], [[], ["deanna"], [], ["lorn"]])
    lead(masseuse, "masseuse", J)
    assert _asked(masseuse) == (Kind.CHOOSE, 0, "P1: move the top card of which location?")
    play(masseuse, at(I))
    assert _asked(masseuse) == (Kind.CHOOSE, 0, "P1: move it from The Institute to which "
                                                "location?")
    rose = table([["garden-trained-rose"], ["judge"]], [["banker"], [], [], []])
    lead(rose, "garden-trained-rose", J)
    assert _asked(rose) == (Kind.CHOOSE, 0, "P1: move the card below to which location?")
    theodora = table([["theodora"], ["judge"]], [["lorn"], [], [], []])
    lead(theodora, "theodora", J)
    assert _asked(theodora) == (Kind.CHOOSE, 0, "P1: move the bottom card here onto Theodora?")
    conversationalist = table([["conversationalist"], ["judge"]], [[], ["martyr"], ["eo"], []])
    lead(conversationalist, "conversationalist", J)
    assert _asked(conversationalist) == (Kind.TARGET, 0,
                                         "P1: move which top card under this one?")


def test_the_telemanuses_send_the_cards_below_to_another_location() -> None:
    """The Telemanuses: move every card beneath them onto the top of another location."""
    game = table([["the-telemanuses"], ["judge"]], [["deanna", "lorn"], [], [], []])
    lead(game, "the-telemanuses", J)
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: move the cards below to which location?")
    assert values(game) == {"mars", "luna", "institute"}


def test_4d_painter_sends_a_face_down_card_anywhere_else_but_not_to_its_own_location() -> None:
    """4D Painter: move a card to another location holding no card of its color; a
    face-down card has no color, so any other location will do."""
    game = table([["4d-painter"], ["judge"]], [["deanna"], ["eo"], ["lorn"], ["zanzibar"]])
    _face_down_at(game, J, 0)
    lead(game, "4d-painter", J)
    play(game, pick("deanna", J, 0))
    assert values(game) == {"mars", "luna", "institute"}


def test_4d_painter_refuses_a_card_left_with_nowhere_to_go_while_asked() -> None:
    """4D Painter's card must go where its color is absent: once the table shows a Violet
    on the one location that had none, Holo Host cannot move anywhere."""
    game = tracked([["holo-host"], ["zanzibar"], ["musician"], []])
    lead(game, "4d-painter", J)
    game.push(SetLocation(I, ("vlogger",)))
    with pytest.raises(IllegalActionError, match=r"^holo-host cannot move anywhere \[ability\]$"):
        game.play(pick("holo-host", J, 0))


def test_musician_skips_a_face_down_card_it_cannot_read_a_core_value_from() -> None:
    """Musician moves a card with an even core value: a face-down card shows none."""
    game = table([["musician"], ["judge"]], [["lorn", "eo"], [], [], []])
    _face_down_at(game, J, 0)
    lead(game, "musician", J)
    assert values(game) == {"eo", "musician"}


def test_a_card_turned_face_down_while_asked_no_longer_qualifies_to_move() -> None:
    """Musician picks an even card, Colonel Valentin a Gold: one turned face down while
    the question was open shows neither core value nor color."""
    musician = tracked([["lorn", "eo"], [], [], []])
    lead(musician, "musician", J)
    _face_down_at(musician, J, 0)
    with pytest.raises(IllegalActionError, match=r"^lorn does not qualify"):
        musician.play(pick("lorn", J, 0))
    colonel = tracked([["deanna"], ["lorn"], ["aja"], []])
    lead(colonel, "colonel-valentin", J)
    _face_down_at(colonel, M, 0)
    with pytest.raises(IllegalActionError, match=r"^lorn does not qualify"):
        colonel.play(pick("lorn", M, 0))


def test_a_tracked_garden_trained_rose_names_an_unread_card_below_but_not_a_face_down_one() -> None:
    """Garden-Trained Rose moves the card directly under it (a Silver earns Helium): an
    unread face-up card is named first; a face-down one just moves."""
    unread = tracked([[None], [], [], []])
    lead(unread, "garden-trained-rose", J)
    assert _asked(unread) == (Kind.CONFIRM, 0, "Name the card at Jupiter (#1)")
    down = tracked([[None], [], [], []])
    down.push(SetLocation(J, (None,), face_down=(True,)))
    lead(down, "garden-trained-rose", J)
    assert _asked(down) == (Kind.CHOOSE, 0, "P1: move the card below to which location?")


def test_theodora_gains_a_red_and_leaves_herself_alone_and_names_first_while_tracking() -> None:
    """Theodora: you may move this location's bottom card onto her; a Gold or a Red is
    gained (ending the turn). Alone she has no bottom card to move; while tracking an
    unread bottom card is named first, a face-down one is not."""
    red = table([["theodora"], ["judge"]], [["deanna", "pelus"], [], [], []])
    lead(red, "theodora", J)
    play(red, at(J))
    assert hand(red) == ("deanna",) and turn_of(red) == 1
    alone = table([["theodora"], ["judge"]])
    lead(alone, "theodora", J)
    assert gain_is_next(alone)
    unread = tracked([[None, "pelus"], [], [], []])
    lead(unread, "theodora", J)
    assert _asked(unread) == (Kind.CONFIRM, 0, "Name the card at Jupiter (#1)")
    down = tracked([[None, "pelus"], [], [], []])
    down.push(SetLocation(J, (None, "pelus"), face_down=(True, False)))
    lead(down, "theodora", J)
    assert _asked(down) == (Kind.CHOOSE, 0, "P1: move the bottom card here onto Theodora?")


def test_a_tracked_matteo_moving_a_face_down_card_calls_it_it() -> None:
    """Matteo moves another card here; a face-down card nobody has named is "it"."""
    game = tracked([[None, "lorn"], [], [], []])
    game.push(SetLocation(J, (None, "lorn"), face_down=(True, False)))
    lead(game, "matteo", J)
    play(game, pick(None, J, 0))
    assert _asked(game) == (Kind.CHOOSE, 0, "P1: move it to which location?")


def test_the_telemanuses_move_nothing_once_the_cards_below_are_gone() -> None:
    """The Telemanuses move every card under them: when the table shows none left while
    the question waits, nothing moves, and never The Telemanuses themselves."""
    game = tracked([["deanna", "lorn"], [], [], []])
    lead(game, "the-telemanuses", J)
    game.push(SetLocation(J, ("the-telemanuses",)))
    play(game, at(M))
    assert stack(game, J) == ["the-telemanuses"] and stack(game, M) == []


def test_theodora_puts_the_bottom_card_directly_on_herself_under_a_card_laid_on_her() -> None:
    """Theodora: move the bottom card on top of this card; a Gold is gained. Though a
    correction laid Deanna on her while the question waited, Lorn goes directly onto
    Theodora, and Lorn is the card gained."""
    game = table([["theodora"], ["judge"]], [["lorn", "pelus"], [], [], []])
    lead(game, "theodora", J)
    game.push(SetLocation(J, ("lorn", "pelus", "theodora", "deanna")))
    play(game, at(J))
    assert hand(game) == ("lorn",) and stack(game, J) == ["pelus", "theodora", "deanna"]


def _borrowed_turn(jupiter: list[str], mars: list[str], card: str) -> Game:
    """P1 deploys Loan Shark on Jupiter and P2 borrows a turn (2 Helium) to play ``card``."""
    game = table([["loan-shark"], [card, "judge"], ["eo"]], [jupiter, mars, [], []],
                 tokens={1: (6, 0, 0)})
    lead(game, "loan-shark", J)
    play(game, seat(1), Choose("turn"))
    return game


def test_in_a_borrowed_turn_theodora_and_conversationalist_still_gain() -> None:
    """Loan Shark's borrower may not gain Loan Shark; any other card is gained as printed:
    Theodora's Gold pulled up onto her, Conversationalist's White moved under it."""
    theodora = _borrowed_turn([], ["lorn", "pelus"], "theodora")
    play(theodora, Lead("theodora", M), at(M))
    assert "lorn" in hand(theodora, 1) and stack(theodora, M) == ["pelus", "theodora"]
    talker = _borrowed_turn([], ["martyr"], "conversationalist")
    play(talker, Lead("conversationalist", L), pick("martyr", M, 0))
    assert "martyr" in hand(talker, 1) and stack(talker, L) == ["conversationalist"]


def test_a_tracked_conversationalist_needs_the_unread_top_card_named() -> None:
    """Conversationalist moves another location's top card under it and gains a White:
    whether it is one decides the gain, so an unread card picked without a name is
    refused; named Martyr, it moves under Conversationalist."""
    game = tracked([[], [None], [], []])
    lead(game, "conversationalist", J)
    with pytest.raises(IllegalActionError, match=r"^that card does not qualify \[ability\]$"):
        game.play(pick(None, M, 0))
    play(game, pick("martyr", M, 0))
    assert stack(game, J) == ["martyr", "conversationalist"]
