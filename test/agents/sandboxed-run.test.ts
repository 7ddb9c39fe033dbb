import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentRunRequest } from "../../src/agents/agent.js";
import { sandboxedRun } from "../../src/agents/sandboxed-run.js";
import type { SandboxedCommand } from "../../src/sandbox/index.js";

// No bubblewrap is started here: the tests read the command built.
let dir: string;
let work: string;
let home: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-sandboxed-run-"));
  work = join(dir, "work");
  home = join(dir, "home");
  await mkdir(work);
  await mkdir(home);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = { command: "/bin/agent", args: ["-p", "hi"], env: { PATH: "/usr/bin" } };
const sandbox = {
  bwrap: "/usr/bin/bwrap",
  network: { kind: "simulator" as const, url: "http://127.0.0.1:9" },
};
const request = (extra: Partial<AgentRunRequest> = {}): AgentRunRequest => ({
  prompt: "hi",
  cwd: work,
  home,
  timeoutMs: 1000,
  sandbox,
  ...extra,
});

// The folders bwrap binds (`--bind <source> <target>`), writable or read-only.
function binds(wrapped: SandboxedCommand, flag: "--bind" | "--ro-bind"): string[] {
  const args = wrapped.args.slice(0, wrapped.args.indexOf("--"));
  return args.flatMap((arg, i) => (arg === flag ? [args[i + 1] ?? ""] : []));
}

async function built(
  req: AgentRunRequest,
): Promise<{ bind: string[]; roBind: string[]; command: SandboxedCommand }> {
  const pending = sandboxedRun(line, req);
  if (!pending) throw new Error("no sandboxed command");
  const command = await pending;
  try {
    return { bind: binds(command, "--bind"), roBind: binds(command, "--ro-bind"), command };
  } finally {
    await command.close();
  }
}

describe("sandboxedRun", () => {
  it("none for a run that asked for no sandbox", () => {
    expect(sandboxedRun(line, request({ sandbox: undefined }))).toBeUndefined();
  });

  it("the agent's command in bubblewrap, its working folder and home writable", async () => {
    for (const tools of [undefined, "eval" as const]) {
      const { bind, roBind, command } = await built(request(tools ? { tools } : {}));
      expect(command.command).toBe("/usr/bin/bwrap");
      expect(command.args.slice(-3)).toEqual(["/bin/agent", "-p", "hi"]);
      expect(bind.slice(0, 2)).toEqual([work, home]);
      expect(roBind).not.toContain(work);
    }
  });

  it("a read-only run (a judge) sees its working folder without writing to it", async () => {
    const { bind, roBind } = await built(request({ tools: "read-only" }));
    expect(bind).not.toContain(work);
    expect(bind[0]).toBe(home);
    expect(roBind).toContain(work);
  });
});
