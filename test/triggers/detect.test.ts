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
  });
});
