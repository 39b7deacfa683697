"""The shared input checker: each spec's verdicts, the field paths, whole documents."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.schema import (
    Boolean,
    Field,
    Integer,
    ListOf,
    Number,
    OneOf,
    Record,
    SchemaError,
    Text,
    check_document,
)

PLAYER = Record({
    "name": Field(Text(24, min_length=1, strip=True)),
    "house": Field(OneOf(("mars", "luna")), nullable=True),
    "helium": Field(Integer(0)),
    "fleet": Field(Integer(0, 10), required=False),
})
TABLE = Record({"players": Field(ListOf(PLAYER, max_items=6, min_items=1))})


@pytest.mark.parametrize(("spec", "value", "message"), [
    (Integer(0, 10), 11, "x must be a whole number, 0 to 10, not 11"),
    (Integer(0), -1, "x must be a whole number, 0 or more, not -1"),
    (Integer(high=3), 4, "x must be a whole number, at most 3, not 4"),
    (Integer(), True, "x must be a whole number, not True"),
    (Integer(), 1.0, "x must be a whole number, not 1.0"),
    (Number(0.1, 60), 0, "x must be a number, 0.1 to 60, not 0"),
    (Number(), math.nan, "x must be a number, not nan"),
    (Number(), "fast", "x must be a number, not 'fast'"),
    (Boolean(), 1, "x must be true or false, not 1"),
    (Text(3), "abcd", "x is longer than 3 characters"),
    (Text(24, min_length=1, strip=True), "  ", "x must be 1 to 24 characters"),
    (Text(), 5, "x must be a string, not 5"),
    (OneOf(("odd", "even")), ["odd"], "x must be one of odd, even, not ['odd']"),
    (ListOf(max_items=2), [1, 2, 3], "x holds more than 2 items"),
    (ListOf(Integer(0), min_items=1), [], "x must hold at least 1 items"),
    (ListOf(Integer(0)), [0, -1], "x[1] must be a whole number, 0 or more, not -1"),
    (Record(), [], "x must be a JSON object, not []"),
])
def test_each_spec_names_the_field_and_the_requirement(spec: object, value: object,
                                                       message: str) -> None:
    with pytest.raises(SchemaError) as refused:
        spec.check(value, "x")  # type: ignore[attr-defined]
    assert str(refused.value) == message and refused.value.path.startswith("x")


def test_good_values_come_back_unchanged() -> None:
    table = {"players": [{"name": " Ann ", "house": None, "helium": 3}]}
    assert TABLE.check(table) is table
    assert Number(0, 1).check(1) == 1 and Boolean().check(False) is False


@pytest.mark.parametrize(("table", "message"), [
    ({}, "players must be a list, not missing"),
    ({"players": []}, "players must hold at least 1 items"),
    ({"players": [{"name": "Ann", "house": "io", "helium": 0}]},
     "players[0].house must be one of mars, luna, not 'io'"),
    ({"players": [{"name": "Ann", "house": None}]},
     "players[0].helium must be a whole number, 0 or more, not missing"),
    ({"players": [{"name": "Ann", "house": None, "helium": 0, "hands": []}]},
     "unknown field 'hands' in players[0]"),
    ({"players": [{"name": "Ann", "house": None, "helium": 0}], "zzz": 1},
     "unknown field 'zzz'"),
])
def test_nested_fields_are_named_by_their_path(table: object, message: str) -> None:
    with pytest.raises(SchemaError) as refused:
        TABLE.check(table)
    assert str(refused.value) == message


def test_an_open_record_lets_other_fields_through() -> None:
    assert Record({"a": Field(Integer())}, open=True).check({"a": 1, "b": 2}) == {"a": 1, "b": 2}


@pytest.mark.parametrize(("document", "message"), [
    ([[[[]]]], "the body is nested deeper than 3 levels"),
    ({"a": [math.inf]}, "the body holds a number that is not finite"),
    (["\ud800"], "the body holds a string that is not valid Unicode"),
])
def test_documents_are_bounded_without_recursion(document: object, message: str) -> None:
    with pytest.raises(SchemaError) as refused:
        check_document(document, 3, "the body")
    assert str(refused.value) == message
    check_document([[[]]], 3, "the body")  # exactly as deep as allowed
    check_document([[0]] * 100_000, 3)  # wide is fine
    deep: list[object] = []
    for _ in range(100_000):  # far past Python's recursion limit
        deep = [deep]
    with pytest.raises(SchemaError):
        check_document(deep, 8)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=10,
)


@given(json_values)
def test_any_value_is_accepted_or_refused_in_one_line(value: object) -> None:
    try:
        TABLE.check({"players": [value]})
    except SchemaError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(("players", "unknown field"))
