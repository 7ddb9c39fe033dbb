import { afterAll, beforeAll } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import type { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { tempDir } from "../e2e/helpers.js";
import { executableDouble } from "./index.js";

/** What {@link useSimDouble} made for a test file; each getter throws when read before its beforeAll ran. */
export interface SimDouble {
  /** The test file's temp folder, its files written by `write`. */
  readonly dir: string;
  /** The agent double's executable, in {@link dir}. */
  readonly binary: string;
  /** The sim, scripted by the file's script. */
  readonly sim: SimServer;
  /** The claude-code adapter on the double, against the sim (as `createClaudeCodeAgent` would drive the real binary). */
  agent(): Promise<Agent>;
}

/**
 * A temp folder for the test file, the agent double's executable in it, the file's own files (`write`) and one sim
 * scripted by `script`: made in beforeAll, in that order; the sim closed and the folder removed in afterAll.
 */
export function useSimDouble(
  script: SimScript,
  write: (dir: string) => Promise<unknown>,
  options: { logBodies?: boolean } = {},
): SimDouble {
  let made: { dir: string; cleanup: () => Promise<void> } | undefined;
  let binary: string | undefined;
  let sim: SimServer | undefined;
  beforeAll(async () => {
    made = await tempDir();
    binary = await executableDouble(made.dir);
    await write(made.dir);
    sim = await startSim({ script, ...options });
  });
  afterAll(async () => {
    await sim?.close();
    await made?.cleanup();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} of useSimDouble is made in beforeAll`);
    return value;
  };
  const fx: SimDouble = {
    get dir() {
      return ready(made, "temp folder").dir;
    },
    get binary() {
      return ready(binary, "agent double");
    },
    get sim() {
      return ready(sim, "sim");
    },
    agent: () => createClaudeCodeAgent({ binary: fx.binary, simulatorUrl: fx.sim.url }),
  };
  return fx;
}
