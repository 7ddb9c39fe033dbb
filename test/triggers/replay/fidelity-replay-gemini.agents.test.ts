import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/agents/registry.js";
import { FIDELITY_QUERIES, fidelityCase } from "./fidelity-case.js";

// The fidelity case (fidelity-case.ts) through the real Gemini CLI, with one query more: Gemini CLI rewrites an @
// reference before its request (it inlines the file), so the agent makes that run.
const queries = [
  ...FIDELITY_QUERIES.slice(0, 3),
  { query: "first a haiku about @notes.md", should_trigger: true, kind: "agent" as const },
  ...FIDELITY_QUERIES.slice(3),
];
const fidelity = fidelityCase({
  createAgent: (simulatorUrl) => createAgent("gemini", { simulatorUrl }),
  queries,
  project: { "notes.md": "Rain on the tin roof, notes kept in NOTESFILE7d3.\n" },
});

describe("--screen replay through the real Gemini CLI", () => {
  it("decides first-turn runs by replay, hands the rest to the agent, and every verdict equals the all-agent run", async () => {
    const { log, capture, replays, dir } = await fidelity.run();
    // The agent's own request for the @ query holds the file's content: no replay of the capture could have sent it.
    const inlined = log.find((e) => e.prompt.startsWith("first a haiku about @notes.md"));
    expect(inlined?.body).toContain("NOTESFILE7d3");
    // Gemini CLI's own first request, byte for byte but for the query, is what each replay sent, at its path.
    fidelity.expectSentAsCaptured(
      capture,
      replays,
      queries.filter((q) => !q.query.includes("@")),
    );
    for (const entry of replays) expect(entry.path).toBe(capture.path);
    // Sent as Gemini CLI sends it (its client headers), with a key of the replay's own; none stored with the capture.
    for (const entry of replays) {
      expect(entry.headers?.["user-agent"]).toBe(capture.headers?.["user-agent"]);
      expect(entry.headers?.["x-goog-api-client"]).toBe(capture.headers?.["x-goog-api-client"]);
    }
    const stored = (await readdir(join(dir, "cache"), { recursive: true })).filter((f) =>
      f.endsWith("capture.json"),
    );
    expect(stored).toHaveLength(1);
    const kept = JSON.parse(await readFile(join(dir, "cache", stored[0]!), "utf8"));
    expect(kept.headers["user-agent"]).toMatch(/^GeminiCLI/);
    expect(kept.headers).not.toHaveProperty("x-goog-api-key");
    expect(kept.body).toBe(capture.body);
  });
});
