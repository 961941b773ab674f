#!/usr/bin/env python3
"""The top of the leaderboard's season, read from DynamoDB by a Python job with boto3: the keys
the Rust example wrote (`cargo run --example leaderboard -- --endpoint URL`), decoded by the
layout text alone, as the Rust example prints them.

    python3 examples/readers/top_of_season.py http://127.0.0.1:8000 [TABLE]

The layout is RankKey's, as the lock records it; the query is the Rust example's
`RankKey::query().begins_with()` with `Limit 3`, built by the same rules (spec/SPEC.md).
"""

import sys

import boto3

import sortkey

RANK_KEY = "RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}"
SEASON = "SEASON#2024-06"


def table(headers, rows, right):
    """Rows as the Rust example's TextTable writes them: two spaces in, two between columns."""
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]
    lines = []
    for cells in [headers, ["-" * w for w in widths], *rows]:
        parts = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        lines.append(("  " + "  ".join(parts)).rstrip())
    return "\n".join(lines)


def main(endpoint, table_name):
    client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id="local", aws_secret_access_key="local")
    layout = sortkey.parse(RANK_KEY)
    best = sortkey.Query(layout).begins_with()
    expression = best.expression("pk", SEASON, "sk")
    page = client.query(TableName=table_name, Limit=3, **expression)
    rows = []
    for i, item in enumerate(page["Items"]):
        run = sortkey.decode(layout, item["sk"]["S"])
        rows.append([i + 1, run["score"], run["timestamp"], run["player_id"]])
    print("the 3 best runs (Limit 3):")
    print(f"  condition  {best}")
    print(f"  expression {expression['KeyConditionExpression']}")
    print(table(["rank", "score", "timestamp", "player"], rows, right={0, 1, 2}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "sortkey-leaderboard")
