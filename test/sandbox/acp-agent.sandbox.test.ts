import { cp } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentRunRequest } from "../../src/agents/agent.js";
import { createAgent } from "../../src/agents/registry.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

// An ACP agent given by its command runs inside bubblewrap under --sandbox, as the native agents do: the scripted ACP
// double (test/acp-double/agent.mjs) reads a file itself, outside its workspace and then inside it. The sandbox shows
// an npm-installed agent its node_modules folder, so the double is installed as one would be: in a node_modules
// folder of its own, beside the packages it imports.
const modulesRoot = join(import.meta.dirname, "..", "..", "node_modules");
let DOUBLE: string;

async function installDouble(modules: string): Promise<string> {
  const keep = (source: string) => !/\.(map|d\.[cm]?ts)$/.test(source);
  await cp(
    join(import.meta.dirname, "..", "acp-double", "agent.mjs"),
    join(modules, "acp-double", "agent.mjs"),
  );
  for (const name of ["@agentclientprotocol/sdk", "zod"])
    await cp(join(modulesRoot, name), join(modules, name), {
      recursive: true,
      dereference: true,
      filter: keep,
    });
  return join(modules, "acp-double", "agent.mjs");
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "secret/canary.txt": "canary-outside\n",
    "run/work/inside.txt": "inside\n",
    "run/home/.keep": "",
  });
  DOUBLE = await installDouble(join(dir, "agent", "node_modules"));
});
afterEach(() => cleanup());

const request = (prompt: string): AgentRunRequest => ({
  prompt,
  cwd: join(dir, "run", "work"),
  home: join(dir, "run", "home"),
  timeoutMs: 120_000,
});

describe("an ACP agent under --sandbox", () => {
  it("runs inside the sandbox: its own process sees its workspace and not the user's files", async () => {
    const plain = await createAgent(`acp:node ${DOUBLE}`, {});
    const outsidePlain = await plain.run(request(`probe ${join(dir, "secret", "canary.txt")}`));
    expect(outsidePlain.result?.text).toBe("probe: seen canary-outside");

    const agent = await createAgent(`acp:node ${DOUBLE}`, { sandbox: true });
    expect(agent.sandboxed).toBe(true);
    const outside = await agent.run(request(`probe ${join(dir, "secret", "canary.txt")}`));
    expect(outside.outcome, outside.process.stderrTail).toBe("success");
    expect(outside.result?.text).toBe("probe: hidden");
    expect(outside.sandbox).toEqual({ refusedHosts: [] });
    const inside = await agent.run(request(`probe ${join(dir, "run", "work", "inside.txt")}`));
    expect(inside.result?.text).toBe("probe: seen inside");
  });
});
