import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAcpCommandAgent } from "../../../src/agents/acp/entry.js";
import { genericProfile } from "../../../src/agents/acp/generic-profile.js";
import { probeModelChoice } from "../../../src/agents/acp/probe.js";
import type { RunSetup } from "../../../src/agents/acp/profile.js";
import { exists } from "../../../src/fs-probe.js";
import { tempDir } from "../../e2e/helpers.js";

// The model probe in process against the scripted ACP agent (test/acp-double/agent.mjs): one node process per probe.
const DOUBLE = join(import.meta.dirname, "..", "..", "acp-double", "agent.mjs");
const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, ...extra });

describe("probeModelChoice", () => {
  it("reads the models a session offers, and the request that picks one", async () => {
    const profile = await genericProfile(["node", DOUBLE], {
      env: env({ ACP_DOUBLE_MODELS: "model-a,model-b" }),
      passEnv: ["ACP_DOUBLE_MODELS"],
    });
    const choice = await probeModelChoice(profile);
    expect(choice?.ids).toEqual(["model-a", "model-b"]);
    expect(choice?.request("s1", "model-b")).toEqual({
      method: "session/set_config_option",
      params: { sessionId: "s1", configId: "model", value: "model-b" },
    });
  });

  it("starts the agent in an empty folder with an empty home of its own, offering no client methods, then removes both", async () => {
    const { dir, cleanup } = await tempDir();
    const initLog = join(dir, "initialize.jsonl");
    const profile = await genericProfile(["node", DOUBLE], {
      env: env({ ACP_DOUBLE_INIT_LOG: initLog }),
      passEnv: ["ACP_DOUBLE_INIT_LOG"],
    });
    const setups: RunSetup[] = [];
    const found: string[][] = [];
    const choice = await probeModelChoice({
      ...profile,
      prepare: async (setup) => {
        setups.push(setup);
        found.push(await readdir(setup.home), await readdir(setup.cwd));
        await profile.prepare(setup);
      },
    });
    expect(choice).toBeUndefined();
    const [setup] = setups;
    expect(setup).toMatchObject({ tools: "eval", model: undefined });
    expect(setup?.home).not.toBe(setup?.cwd);
    expect(found).toEqual([[], []]);
    expect(await exists(dirname(setup?.home ?? ""))).toBe(false);
    expect(JSON.parse(await readFile(initLog, "utf8"))).toMatchObject({
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "skillgym", title: "skillgym", version: "0" },
    });
    await cleanup();
  });

  it("says which command did not open a session, and why", async () => {
    const profile = await genericProfile(["node", "-e", "process.stderr.write('no acp here\\n')"], {
      env: env(),
    });
    await expect(probeModelChoice(profile)).rejects.toThrow(
      /^node -e process\.stderr\.write\('no acp here\\n'\) did not open a session \(ACP connection closed\): no acp here$/,
    );
  });

  it("an agent that answers session/new with no session: no session, and no reason to tell", async () => {
    const agent = [
      'require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {',
      "  const { id, method } = JSON.parse(line);",
      '  const result = method === "initialize" ? { protocolVersion: 1 } : null;',
      '  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");',
      "});",
    ].join("\n");
    const profile = await genericProfile(["node", "-e", agent], { env: env() });
    await expect(probeModelChoice(profile)).rejects.toThrow(/\}\);? did not open a session$/);
  });

  it("says an agent that never answers ran out of time", async () => {
    const profile = await genericProfile(["node", "-e", "setInterval(() => {}, 1000)"], { env: env() });
    await expect(probeModelChoice(profile, 300)).rejects.toThrow(
      /^node -e setInterval\(\(\) => \{\}, 1000\) did not open a session \(no answer in 0\.3 s\)$/,
    );
  });
});

describe("--model for an acp: agent", () => {
  it("refuses, before any run, a model the agent does not offer, and any model when it offers no selection", async () => {
    const options = (models: string, asked: string[]) => ({
      env: env(models ? { ACP_DOUBLE_MODELS: models } : {}),
      passEnv: models ? ["ACP_DOUBLE_MODELS"] : [],
      models: asked,
    });
    await expect(
      createAcpCommandAgent(
        `acp:node ${DOUBLE}`,
        options("model-a,model-b", ["model-c", "model-a", "model-d"]),
      ),
    ).rejects.toMatchObject({
      code: "USAGE",
      message: `--model model-c,model-d: node ${DOUBLE} does not offer these models (it offers: model-a, model-b)`,
      hint: "name one of the models it offers",
    });
    await expect(createAcpCommandAgent(`acp:node ${DOUBLE}`, options("", ["model-a"]))).rejects.toMatchObject(
      {
        code: "USAGE",
        message: `--model model-a: node ${DOUBLE} offers no model selection over ACP`,
        hint: "leave out --model (the agent runs its own default), or put the agent's own model flag in its command",
      },
    );
  });

  it("an agent that cannot be started is unavailable", async () => {
    await expect(
      createAcpCommandAgent("acp:node -e 0", { env: env(), models: ["model-a"] }),
    ).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "--model: node -e 0 did not open a session (ACP connection closed)",
      hint: "check that the command starts an ACP agent",
    });
  });
});
