import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAcpCommandAgent } from "../../../src/agents/acp/entry.js";
import { genericProfile } from "../../../src/agents/acp/generic-profile.js";
import { probeModelChoice } from "../../../src/agents/acp/probe.js";

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

  it("says which command did not open a session, and why", async () => {
    const profile = await genericProfile(["node", "-e", "process.stderr.write('no acp here\\n')"], {
      env: env(),
    });
    await expect(probeModelChoice(profile)).rejects.toThrow(
      /^node -e process\.stderr\.write\('no acp here\\n'\) did not open a session( \(.+\))?: no acp here$/,
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
      message: expect.stringMatching(/^--model: node -e 0 did not open a session/),
      hint: "check that the command starts an ACP agent",
    });
  });
});
