"""A read across versions whose oldest layout puts its fields in another order (SK-LCK-003,
SK-LCK-004): no condition on the score can be said of it, so it is read by the widest condition
it can express and its keys are held to the current condition. Every run the condition selects is
a result, once, whatever layout holds it."""

from typing import List, Optional

import sortkey

LOCK = """Rank = RUN#{score:u64 width=12 desc}#{player:text}
Rank@v1 = RUN#{score:u64 width=7}#{player:text}
Rank@v0 = BY#{player:text}#{score:u64 width=7}
Rank > Rank@v1 > Rank@v0
"""


def conditions() -> List[sortkey.FieldCondition]:
    c = sortkey.FieldCondition
    return [
        c(),
        c().compare("score", ">=", 200_000),
        c().between("score", 120_000, 340_000),
        c().fix("score", 74_000).text_begins_with("player", "p_0"),
    ]


def test_an_older_layout_in_another_field_order_is_read_and_held_to_the_condition() -> None:
    lock = sortkey.Lock.parse(LOCK)
    live = lock.live("Rank")
    names = ["Rank", "Rank@v1", "Rank@v0"]
    runs = [{"score": (i * 37) % 500 * 1000, "player": f"p_{i:02}"} for i in range(90)]
    stored: List[str] = []
    for i, run in enumerate(runs):
        stored.append(sortkey.encode(lock.get(names[i % 3]), run))
        if i % 10 == 0 and i % 3 != 0:
            stored.append(sortkey.encode(lock.get("Rank"), run))
    stored.sort(key=lambda k: k.encode("utf-8"))
    for condition in conditions():
        per_version = live.conditions(condition)
        assert per_version[2] is not None, "the oldest layout is read"
        # Each version's Query: the keys of the partition its condition selects.
        pages = [[k for k in stored if c is not None and c.matches(k)] for c in per_version]
        current: Optional[sortkey.KeyCondition] = per_version[0]
        assert current is not None
        want = sorted(
            (k for k in (sortkey.encode(lock.get("Rank"), r) for r in runs) if current.matches(k)),
            key=lambda k: k.encode("utf-8"),
        )
        assert want, f"{condition}: the condition selects some runs"
        got = [current_key for _, _, current_key in live.merge(per_version, pages)]
        assert got == want, condition
        assert any(version == 2 for _, version, _ in live.merge(per_version, pages)), condition


def test_a_lock_names_the_layouts_that_keep_rank_counters() -> None:
    text = "RankKey = RUN#{score:u64 width=10 desc}#{player:text}\nrank RankKey.score levels=4\n"
    lock = sortkey.Lock.parse(text)
    assert lock.ranks == [("RankKey", "score", 4)]
    for bad, said in [
        ("rank Nope.score levels=4\n", "`Nope` is no layout of the lock"),
        ("RankKey = RUN#{score:u64 width=10}\nrank RankKey levels=4\n", "expected `rank Layout.field levels=N`"),
    ]:
        try:
            sortkey.Lock.parse(bad)
        except sortkey.LockError as e:
            assert said in str(e), str(e)
        else:
            raise AssertionError(f"{bad!r} was read")
