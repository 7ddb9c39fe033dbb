import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { createAgent } from "../../src/agents/registry.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { startSim } from "../../src/sim/index.js";
import { detectTrigger, stolenBy } from "../../src/triggers/detect.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The check that the ACP path tells the truth: Gemini CLI driven natively (`--agent gemini`, its stream-json) and in
// ACP mode (`--agent 'acp:gemini --acp'`) gives the same trigger verdicts on the conformance suite's trigger scenarios.
const SCENARIOS = [
  {
    name: "loads the skill after a read",
    rule: { skill: "haiku", before: [{ read: "notes.txt" }], steps: [{ text: "Written." }] },
  },
  { name: "loads no skill", rule: { skill: "none", without_skill: [{ text: "No." }] } },
  { name: "a competitor takes the query", rule: { skill: "limerick", steps: [{ text: "A limerick." }] } },
];
const OURS = "haiku-sg-1";

describe("Gemini CLI natively and over ACP: the same trigger verdicts", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterAll(() => cleanup());

  async function verdict(
    agentName: string,
    scenario: number,
  ): Promise<{ triggered: boolean; stolen: string[] }> {
    const rule = {
      ...SCENARIOS[scenario]!.rule,
      ...(SCENARIOS[scenario]!.rule.skill === "haiku" ? { skill: OURS } : {}),
    };
    const sim = await startSim({ script: SimScript.parse({ rules: [rule] }) });
    try {
      const agent = await createAgent(agentName, { simulatorUrl: sim.url });
      const run = join(dir, `${agent.name}-${scenario}.run-1.a1`);
      await writeTree(join(run, "work"), {
        "notes.txt": "Meeting notes.\n",
        [join(agent.skillsFolder, OURS, "SKILL.md")]: skillMd(OURS, "Writes haiku poems.", "# haiku\n"),
        [join(agent.skillsFolder, "limerick", "SKILL.md")]: skillMd(
          "limerick",
          "Writes limericks.",
          "# limerick\n",
        ),
      });
      await mkdir(join(run, "home"), { recursive: true });
      const result = await agent.run({
        prompt: "Write a haiku poem",
        cwd: join(run, "work"),
        home: join(run, "home"),
        timeoutMs: 180_000,
      });
      expect(result.outcome, result.message).toBe("success");
      const detection = detectTrigger(result.events as AgentEvent[], OURS, "haiku");
      return { triggered: detection.triggered, stolen: stolenBy(detection, "haiku") };
    } finally {
      await sim.close();
    }
  }

  it.each(SCENARIOS.map((s, i) => [s.name, i] as const))(
    "%s",
    async (_name, i) => {
      const native = await verdict("gemini", i);
      const overAcp = await verdict("acp:gemini --acp", i);
      expect(overAcp).toEqual(native);
      // And the verdicts are the scenario's: a comparison of two wrong answers would prove nothing.
      expect(native).toEqual(
        [
          { triggered: true, stolen: [] },
          { triggered: false, stolen: [] },
          { triggered: false, stolen: ["limerick"] },
        ][i],
      );
    },
    400_000,
  );
});
