"""The scoring snapshot: validation names the first problem; helpers copy, never mutate."""

from __future__ import annotations

import pytest

from engine.board import House, Location
from engine.cards import Color
from engine.errors import UnknownCardError
from engine.table import AutomaInfo, Choice, Seat, StackCard, Table, TableError


def table(*seats: Seat, **kw: object) -> Table:
    return Table(seats=seats or (Seat("A", ("eo",)),), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("bad", "message"), [
    (table(Seat("A", ("eo",)), Seat("B", ("eo",))), "card eo is in the hand of A and the hand"),
    (table(banished=("eo",)), "card eo is in the hand of A and the banished pile"),
    (table(locations=((StackCard("eo"),), (), (), ())), "in the hand of A and Jupiter"),
    (table(deck=("eo",)), "in the hand of A and the deck"),
    (table(Seat("A", ("eo",), helium=-1)), "negative helium"),
    (table(Seat("A", ("eo",), fleet=11)), "the track ends at 10"),
    (table(Seat("A", ("eo",), influence=11)), "a house has only 10"),
    (table(neutral_influence=11), "neutral_influence must be 0–10"),
    (table(Seat("A", ()), Seat("A", ())), "two players are named 'A'"),
    (table(Seat("A", (), house=House.MARS), Seat("B", (), house=House.MARS)),
     "two players have house 'mars'"),
    (table(Seat("A", (), sovereign=True), Seat("B", (), sovereign=True)),
     "more than one player holds the Sovereign"),
    (table(Seat("A", (), automa=AutomaInfo(7))), "level must be 1–6"),
    (table(Seat("A", (), automa=AutomaInfo(2, "prime"))), "parity must be"),
    (table(Seat("A", ("eo",), choices=(Choice("eo", name="darrow"),))), "only Oranges"),
    (table(Seat("A", ("trigg",), choices=(Choice("trigg", color=Color.GRAY),))),
     "must differ from gray"),
    (table(Seat("A", ("cyther",), choices=(Choice("trigg", color=Color.RED),))),
     "does not hold it"),
    (table(first_player=2), "first_player 2 is not a seat"),
])
def test_validate_names_the_problem(bad: Table, message: str) -> None:
    with pytest.raises(TableError, match=message):
        bad.validate()


def test_unknown_ids_are_unknown_card_errors() -> None:
    with pytest.raises(UnknownCardError):
        table(Seat("A", ("nobody",))).validate()
    assert issubclass(TableError, ValueError)


def test_a_good_table_validates() -> None:
    good = table(Seat("A", ("cyther", "trigg"), choices=(Choice("cyther", name="darrow"),
                                                         Choice("trigg", color=Color.RED))),
                 Seat("B", ("eo",), house=House.CERES, sovereign=True),
                 locations=((StackCard(None, face_down=True),), (), (), ()), deck=("aja",))
    good.validate()


def test_copies_and_order() -> None:
    t = table(Seat("A", ()), Seat("B", ()), Seat("C", ()), first_player=1)
    assert t.clockwise() == (1, 2, 0)
    moved = t.with_stack(Location.LUNA, (StackCard("eo"),))
    assert t.stack(Location.LUNA) == () and moved.stack(Location.LUNA) == (StackCard("eo"),)
    assert t.with_seat(0, Seat("Z", ())).seats[0].name == "Z" and t.seats[0].name == "A"
    assert moved.where_is("eo") == "Luna" and moved.where_is("aja") is None
