import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResultEvent } from "../../../src/agents/agent.js";
import { readUsageFile, withUsage } from "../../../src/agents/copilot/usage.js";
import { costOf } from "../../../src/agents/pricing.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-copilot-usage-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tokens = (i: number, o: number, r: number, w: number) => ({
  inputTokens: i,
  outputTokens: o,
  cacheReadTokens: r,
  cacheWriteTokens: w,
});

describe("readUsageFile", () => {
  it("each model's tokens, a missing or bad count read as none", async () => {
    const file = join(dir, "usage.json");
    await writeFile(
      file,
      JSON.stringify({
        modelMetrics: {
          "claude-sonnet-4.5": {
            usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 1 },
          },
          "gpt-5": { usage: { inputTokens: "x", outputTokens: Number.NaN } },
          other: { requests: 1 },
          junk: 3,
        },
      }),
    );
    expect(await readUsageFile(file)).toEqual(
      new Map([
        ["claude-sonnet-4.5", tokens(10, 2, 3, 1)],
        ["gpt-5", tokens(0, 0, 0, 0)],
        ["other", tokens(0, 0, 0, 0)],
        ["junk", tokens(0, 0, 0, 0)],
      ]),
    );
  });

  it("undefined for a missing file, bad JSON, or no modelMetrics", async () => {
    expect(await readUsageFile(join(dir, "none.json"))).toBeUndefined();
    await writeFile(join(dir, "bad.json"), "{oops");
    expect(await readUsageFile(join(dir, "bad.json"))).toBeUndefined();
    await writeFile(join(dir, "no-metrics.json"), JSON.stringify({ modelMetrics: [1] }));
    expect(await readUsageFile(join(dir, "no-metrics.json"))).toBeUndefined();
    await writeFile(join(dir, "array.json"), "[]");
    expect(await readUsageFile(join(dir, "array.json"))).toBeUndefined();
  });
});

describe("withUsage", () => {
  const result: ResultEvent = { kind: "result", isError: false, subtype: "success", text: "Done." };

  it("adds every model's tokens and prices each", () => {
    const a = tokens(1000, 100, 50, 10);
    const b = tokens(2000, 200, 0, 0);
    expect(
      withUsage(
        result,
        new Map([
          ["claude-sonnet-4.5", a],
          ["gpt-5", b],
        ]),
      ),
    ).toEqual({
      ...result,
      usage: tokens(3000, 300, 50, 10),
      costUsd: (costOf("claude-sonnet-4.5", a) ?? Number.NaN) + (costOf("gpt-5", b) ?? Number.NaN),
    });
  });

  it("no cost when one model's price is unknown, whichever comes first", () => {
    const t = tokens(1, 1, 0, 0);
    for (const order of [
      ["mystery", "gpt-5"],
      ["gpt-5", "mystery"],
    ])
      expect(withUsage(result, new Map(order.map((m) => [m, t])))).toStrictEqual({
        ...result,
        usage: tokens(2, 2, 0, 0),
      });
    expect(withUsage(result, new Map())).toEqual({ ...result, usage: tokens(0, 0, 0, 0), costUsd: 0 });
  });
});
