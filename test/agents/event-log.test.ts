import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventLog, writeEventLog } from "../../src/agents/event-log.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { createRedactor } from "../../src/redact.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-event-log-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const events: AgentEvent[] = [
  { kind: "init", model: "m", tools: [], skills: ["haiku"] },
  { kind: "text", text: "key fake-secret-value-1 here", messageId: "a" },
  {
    kind: "result",
    isError: false,
    subtype: "success",
    text: "Done.",
    usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 },
  },
];

describe("the event log", () => {
  it("writes one JSON line per event, masked, and reads them back", async () => {
    const path = join(dir, "events.jsonl");
    await writeEventLog(
      path,
      events,
      createRedactor([{ name: "OPENAI_API_KEY", value: "fake-secret-value-1" }]),
    );
    const text = await readFile(path, "utf8");
    expect(text.split("\n")).toEqual([
      JSON.stringify(events[0]),
      JSON.stringify({ kind: "text", text: "key [redacted:OPENAI_API_KEY] here", messageId: "a" }),
      JSON.stringify(events[2]),
      "",
    ]);
    expect(await readEventLog(path)).toEqual([
      events[0],
      { kind: "text", text: "key [redacted:OPENAI_API_KEY] here", messageId: "a" },
      events[2],
    ]);
  });

  it("an empty run writes an empty file", async () => {
    const path = join(dir, "empty.jsonl");
    await writeEventLog(path, [], createRedactor([]));
    expect(await readFile(path, "utf8")).toBe("");
    expect(await readEventLog(path)).toEqual([]);
  });

  it("reads an old log's usage under the neutral names, skipping blank and broken lines", async () => {
    const path = join(dir, "old.jsonl");
    await writeFile(
      path,
      [
        JSON.stringify({
          kind: "usage",
          phase: "start",
          usage: {
            input_tokens: 10,
            output_tokens: 2,
            cache_read_input_tokens: 5,
            cache_creation_input_tokens: 1,
          },
        }),
        "   ",
        "{broken",
        JSON.stringify({
          kind: "result",
          isError: false,
          subtype: "success",
          text: "",
          usage: { output_tokens: "x" },
        }),
        JSON.stringify({ kind: "result", isError: false, subtype: "success", text: "" }),
        JSON.stringify({ kind: "text", text: "t", usage: { input_tokens: 1 } }),
        "",
      ].join("\n"),
    );
    expect(await readEventLog(path)).toEqual([
      {
        kind: "usage",
        phase: "start",
        usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 5, cacheWriteTokens: 1 },
      },
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "",
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { kind: "result", isError: false, subtype: "success", text: "" },
      { kind: "text", text: "t", usage: { input_tokens: 1 } },
    ]);
  });

  it("keeps an event whose usage is no object as it was", async () => {
    const path = join(dir, "odd-usage.jsonl");
    const odd = [
      { kind: "usage", phase: "start", usage: "lots" },
      { kind: "result", isError: false, subtype: "success", text: "", usage: 12 },
    ];
    await writeFile(path, `${odd.map((event) => JSON.stringify(event)).join("\n")}\r\n\t\n`);
    expect(await readEventLog(path)).toEqual(odd);
  });

  it("is undefined where the run folder has no log", async () => {
    expect(await readEventLog(join(dir, "none.jsonl"))).toBeUndefined();
  });
});
