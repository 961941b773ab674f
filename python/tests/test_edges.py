"""Edges found from outside, both ends of each range: instants before 1970 (SK-ENC-017) and the
largest f32, each held to what the Rust crates write or refuse."""

import pytest

import sortkey


@pytest.mark.parametrize("fmt", ["", " format=rfc3339"])
@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_instants_before_1970_are_out_of_range(unit, fmt):
    layout = sortkey.parse(f"EVT#{{at:timestamp unit={unit}{fmt}}}#{{id:text}}")
    for before in ["1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999999999Z", "0001-01-01T00:00:00Z"]:
        with pytest.raises(sortkey.EncodeError) as e:
            sortkey.encode(layout, {"at": before, "id": "e1"})
        assert (e.value.kind, e.value.field) == ("OutOfRange", "at"), before
    # The first instant there is, and the last: both ends of the range.
    for at in ["1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]:
        key = sortkey.encode(layout, {"at": at, "id": "e1"})
        assert sortkey.decode(layout, key) == {"at": at, "id": "e1"}
    # A condition on an instant before 1970 is refused too, never bounds with a sign in them.
    with pytest.raises(sortkey.SortKeyError):
        sortkey.Query(layout).compare("at", ">=", "1969-12-31T23:59:59Z")


def test_a_stored_rfc3339_instant_before_1970_is_refused():
    layout = sortkey.parse("EVT#{at:timestamp format=rfc3339}")
    with pytest.raises(sortkey.DecodeError) as e:
        sortkey.decode(layout, "EVT#1969-12-31T23:59:59Z")
    assert (e.value.kind, e.value.field, e.value.offset) == ("OutOfRange", "at", 4)


def test_the_largest_f32_encodes_and_reads_back():
    layout = sortkey.parse("PRICE#{price:f32}#{name:text}")
    largest = 3.4028234663852886e38
    key = sortkey.encode(layout, {"price": largest, "name": "n"})
    assert key == "PRICE#P8834028235#n"  # as the TypeScript and Rust readers write it
    assert sortkey.decode(layout, key) == {"price": largest, "name": "n"}
    # Past the largest, an f32 is infinity, as Rust's `as f32` reads it.
    assert sortkey.encode(layout, {"price": 3.5e38, "name": "n"}) == "PRICE#Z#n"


@pytest.mark.parametrize("desc", ["", " desc"])
def test_a_decimal_past_an_end_is_the_empty_range(desc):
    layout = sortkey.parse(f"P#{{amount:decimal width=12 scale=2{desc}}}#{{id:text}}")
    for cmp, value in [(">", "999999999.99"), ("<", "-999999999.99")]:
        with pytest.raises(sortkey.QueryError) as e:
            sortkey.Query(layout).compare("amount", cmp, value)
        assert (e.value.kind, e.value.field) == ("EmptyRange", "amount"), (cmp, value)
    # One step inside each end is a condition.
    sortkey.Query(layout).compare("amount", ">", "999999999.98")
    sortkey.Query(layout).compare("amount", ">=", "999999999.99")


@pytest.mark.parametrize("unit,fraction,whole", [
    ("s", "00:00:00.999", "00:00:00"),
    ("ms", "00:00:00.1239", "00:00:00.123"),
    ("us", "00:00:00.1234569", "00:00:00.123456"),
])
@pytest.mark.parametrize("cmp", ["=", "<", "<=", ">", ">="])
def test_an_instant_finer_than_the_unit_is_truncated_in_keys_and_conditions(unit, fraction, whole, cmp):
    layout = sortkey.parse(f"LOG#{{at:timestamp unit={unit}}}#{{id:text}}")
    given, truncated = f"2024-06-23T{fraction}Z", f"2024-06-23T{whole}Z"
    assert sortkey.encode(layout, {"at": given, "id": "x"}) == sortkey.encode(layout, {"at": truncated, "id": "x"})
    assert sortkey.Query(layout).compare("at", cmp, given) == sortkey.Query(layout).compare("at", cmp, truncated)
