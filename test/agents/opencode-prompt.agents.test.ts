import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { startSim } from "../../src/sim/index.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// OpenCode quotes a message argument holding a space and fails on one its parser reads as a number ("1.0").
it("hands OpenCode the prompt exactly: spaces, quotes, a leading dash and numbers", async () => {
  const prompt = '-x Write release notes for 1.0 with "quotes"  and  two spaces\nand a second line';
  const sim = await startSim({
    script: SimScript.parse({ rules: [{ skill: "none", without_skill: [{ text: "Ok." }] }] }),
  });
  try {
    const agent = await createAgent("opencode", { simulatorUrl: sim.url });
    await mkdir(join(dir, "work"), { recursive: true });
    await mkdir(join(dir, "home"), { recursive: true });
    const result = await agent.run({
      prompt,
      cwd: join(dir, "work"),
      home: join(dir, "home"),
      timeoutMs: 300_000,
    });
    expect(result.outcome, result.message).toBe("success");
    expect(sim.log.map((e) => e.prompt)).toEqual([prompt]);
  } finally {
    await sim.close();
  }
}, 400_000);
