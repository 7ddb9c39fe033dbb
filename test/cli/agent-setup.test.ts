import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSetup } from "../../src/cli/agent-setup.js";
import { SkillgymError } from "../../src/errors.js";

const missing = join(import.meta.dirname, "no-such-agent-binary");

async function judgeError(flags: Parameters<typeof createSetup>[0]): Promise<unknown> {
  const setup = createSetup({ simulate: true, ...flags });
  try {
    await setup.judge();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await setup.close();
  }
}

describe("--agent-bin and the judge", () => {
  it("goes to an agent judge only when the judge is the agent", async () => {
    const same = await judgeError({ agent: "codex", agentBin: missing, judge: "codex" });
    expect(same).toBeInstanceOf(SkillgymError);
    expect((same as SkillgymError).code).toBe("AGENT_UNAVAILABLE");
    expect(await judgeError({ agent: "claude-code", agentBin: missing, judge: "codex" })).toBeUndefined();
    expect(await judgeError({ agent: "codex", agentBin: missing, judge: "gemini" })).toBeUndefined();
    expect(await judgeError({ agent: "codex", agentBin: missing, judge: "claude-code" })).toBeUndefined();
  });

  it("builds another backend by name beside the --judge one (tune's --evaluator)", async () => {
    const setup = createSetup({ simulate: true, judge: "sim" });
    try {
      const [judge, evaluator] = await Promise.all([setup.judge(), setup.judge(undefined, "gemini")]);
      expect([judge.backend, evaluator.backend]).toEqual(["sim", "gemini"]);
      expect(await setup.judge()).toBe(judge);
      expect(await setup.judge(undefined, "gemini")).toBe(evaluator);
    } finally {
      await setup.close();
    }
  });
});
