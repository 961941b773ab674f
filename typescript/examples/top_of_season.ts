/**
 * The top of the leaderboard's season, read from DynamoDB by a TypeScript Lambda's code with
 * `@aws-sdk/client-dynamodb`: the keys the Rust example wrote (`cargo run --example leaderboard
 * -- --endpoint URL`), decoded by the layout text alone, as the Rust example prints them.
 *
 *     node dist/examples/top_of_season.js http://127.0.0.1:8000 [TABLE]
 *
 * The layout is RankKey's, as the lock records it; the query is the Rust example's
 * `RankKey::query().begins_with()` with `Limit 3`, built by the same rules (spec/SPEC.md).
 */

import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";

import { Query, decode, parse } from "../src/index.js";

const RANK_KEY = "RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}";
const SEASON = "SEASON#2024-06";

/** Rows as the Rust example's TextTable writes them: two spaces in, two between columns. */
function table(headers: string[], rows: string[][], right: Set<number>): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => [...r[i]!].length)));
  const lines = [headers, widths.map((w) => "-".repeat(w)), ...rows].map((cells) => {
    const parts = cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)));
    return ("  " + parts.join("  ")).trimEnd();
  });
  return lines.join("\n");
}

async function main(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  const layout = parse(RANK_KEY);
  const best = new Query(layout).beginsWith();
  const expression = best.expression("pk", SEASON, "sk");
  const page = await client.send(new QueryCommand({ TableName: tableName, Limit: 3, ...expression }));
  const rows = (page.Items ?? []).map((item, i) => {
    const run = decode(layout, item.sk!.S!) as { score: bigint; timestamp: bigint; player_id: string };
    return [String(i + 1), String(run.score), String(run.timestamp), run.player_id];
  });
  console.log("the 3 best runs (Limit 3):");
  console.log(`  condition  ${best.toString()}`);
  console.log(`  expression ${expression.KeyConditionExpression}`);
  console.log(table(["rank", "score", "timestamp", "player"], rows, new Set([0, 1, 2])));
  client.destroy();
}

await main(process.argv[2]!, process.argv[3] ?? "sortkey-leaderboard");
