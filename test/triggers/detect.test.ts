import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { detectTrigger, stolenBy } from "../../src/triggers/detect.js";
import { planTriggerRuns, syntheticName } from "../../src/triggers/plan.js";

const skill = (name: string): AgentEvent => ({
  kind: "tool_use",
  id: name,
  name: "Skill",
  input: { skill: name },
});
const read = (path: string): AgentEvent => ({
  kind: "tool_use",
  id: path,
  name: "Read",
  input: { file_path: path },
});

describe("trigger detection", () => {
  it("finds our skill loaded after other tools and after another skill", () => {
    const events = [read("/w/README.md"), skill("router"), skill("haiku-sg-1")];
    expect(detectTrigger(events, "haiku-sg-1", "haiku")).toEqual({
      triggered: true,
      loaded: ["router", "haiku"],
    });
  });

  it("counts a read of the synthetic SKILL.md as loading it", () => {
    const d = detectTrigger([read("/w/.claude/skills/haiku-sg-1/SKILL.md")], "haiku-sg-1", "haiku");
    expect(d.triggered).toBe(true);
  });

  it("names the skills that loaded instead of ours", () => {
    const d = detectTrigger([skill("limerick"), skill("deep-research")], "haiku-sg-1", "haiku");
    expect(d.triggered).toBe(false);
    expect(stolenBy(d, "haiku")).toEqual(["limerick", "deep-research"]);
    expect(
      stolenBy(detectTrigger([skill("x"), skill("haiku-sg-1")], "haiku-sg-1", "haiku"), "haiku"),
    ).toEqual([]);
  });

  it("does not count a skill under our real name (a project's own stale copy) as one that took the query", () => {
    const d = detectTrigger([skill("haiku"), skill("limerick")], "haiku-sg-1", "haiku");
    expect(d).toEqual({ triggered: false, loaded: ["haiku", "limerick"] });
    expect(stolenBy(d, "haiku")).toEqual(["limerick"]);
  });

  it("does not take another skill whose name starts like ours for ours", () => {
    expect(detectTrigger([skill("haiku-sg-12")], "haiku-sg-1", "haiku").triggered).toBe(false);
  });
});

describe("trigger run planning", () => {
  it("gives every run its own valid synthetic name and folder", () => {
    const specs = planTriggerRuns(
      [
        { query: "a", should_trigger: true },
        { query: "b", should_trigger: false },
      ],
      3,
      "/t",
      "x".repeat(64),
    );
    expect(specs).toHaveLength(6);
    expect(new Set(specs.map((s) => s.syntheticName)).size).toBe(6);
    expect(new Set(specs.map((s) => s.runDir)).size).toBe(6);
    for (const s of specs) {
      expect(s.syntheticName.length).toBeLessThanOrEqual(64);
      expect(s.syntheticName).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(syntheticName("haiku", "abcd1234")).toBe("haiku-sg-abcd1234");
    expect(syntheticName("haiku")).toMatch(/^haiku-sg-[0-9a-f]{8}$/);
    // Specs go run by run, each query in its order, into triggers/query-<i>/run-<k>/.
    expect(specs.map((s) => [s.queryIndex, s.query, s.shouldTrigger, s.runNumber, s.runDir])).toEqual(
      [1, 2, 3].flatMap((k) => [
        [0, "a", true, k, join("/t", "query-1", `run-${k}`)],
        [1, "b", false, k, join("/t", "query-2", `run-${k}`)],
      ]),
    );
  });

  it("cuts a long name to fit, dropping the hyphens the cut leaves at its end but none inside", () => {
    expect(syntheticName("my-skill", "ab")).toBe("my-skill-sg-ab");
    const unique = "u".repeat(56);
    // 64 - 56 - 4 = 4 characters of the name are kept: "ab--" loses its trailing hyphens.
    expect(syntheticName("ab--cdef", unique)).toBe(`ab-sg-${unique}`);
    expect(syntheticName("a-b-cdef", unique)).toBe(`a-b-sg-${unique}`);
  });
});
