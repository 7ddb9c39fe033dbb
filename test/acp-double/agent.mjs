#!/usr/bin/env node
// TEST DOUBLE: a small scripted ACP agent (not a real coding agent), for tests of skillgym's ACP client. It speaks
// ACP over stdio through the official SDK and does, for each prompt, what the prompt's first word says:
//   permission-outside  asks permission to edit a file outside the workspace, then says the outcome
//   permission-inside   asks permission to edit a file inside the workspace, then says the outcome
//   permission-unannounced  the same, its tool call first seen in the permission request
//   permission-untitled asks permission to edit a file outside the workspace, its call unannounced and untitled
//   read-outside        asks the client to read a file outside the workspace, then says what it got
//   read-inside         asks the client to read notes.txt, then says what it got
//   skill               reads .agents/skills/haiku/SKILL.md (a tool call with its location), then answers
//   terminal            asks the client for a terminal (which skillgym does not offer)
//   hang                starts `sleep 300` and never answers; writes "cancelled" to $ACP_DOUBLE_LOG on session/cancel
//   probe <path>        says whether the double's own process sees the file at <path> ("probe: seen <text>" or
//                       "probe: hidden"), reading it itself, not through the client
//   model               says the session's model ("model: <id>", "model: none" when none was chosen)
//   write-inside        asks the client to write a.txt in the workspace, then says the outcome
//   read-missing        asks the client to read missing.txt in the workspace, says what it got, then fails the turn
//                       with "Internal error" whose data names the API's answer (as Qwen Code does)
//   skill-or-not        reads the haiku skill's SKILL.md when the workspace has it and answers "A haiku.", else "Hello."
//   anything else       answers "Hello." with usage
// Started with --judge, the double is a judge: for every prompt it first tries to write judged.txt in its folder, once
// through the client (fs/write_text_file) and once by asking permission for an edit, then passes every expectation
// of the grader's <expectations> block, its evidence saying what became of both writes.
// A prompt's word is the first of its last paragraph (a system prompt leads the prompt over ACP).
// Models: $ACP_DOUBLE_MODELS (comma-separated) are offered as a session config option of category "model"
// (session/set_config_option); with $ACP_DOUBLE_MODEL_STATE=1 as the older `models` state (session/set_model) instead.
// Without either the double offers no model selection. Every choice is written to $ACP_DOUBLE_LOG as "model <id>".
// Modes: $ACP_DOUBLE_MODES (comma-separated) are offered as the session's modes and as a config option of category
// "mode" listed first; every switch (session/set_mode) is written to $ACP_DOUBLE_LOG as "mode <id>".
// With $ACP_DOUBLE_INIT_LOG, the params of every `initialize` are written there, one JSON line each.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const log = (line) => process.env.ACP_DOUBLE_LOG && appendFileSync(process.env.ACP_DOUBLE_LOG, `${line}\n`);
const sessions = new Map();
const models = process.env.ACP_DOUBLE_MODELS ? process.env.ACP_DOUBLE_MODELS.split(",") : [];
const chosen = new Map();
const modes = process.env.ACP_DOUBLE_MODES ? process.env.ACP_DOUBLE_MODES.split(",") : [];

function modelOffer() {
  if (models.length === 0) return {};
  if (process.env.ACP_DOUBLE_MODEL_STATE === "1")
    return {
      models: {
        currentModelId: models[0],
        availableModels: models.map((modelId) => ({ modelId, name: modelId })),
      },
    };
  return {
    configOptions: [
      {
        id: "model",
        name: "Model",
        category: "model",
        type: "select",
        currentValue: models[0],
        options: models.map((value) => ({ value, name: value })),
      },
    ],
  };
}

function sessionOffer() {
  const offer = modelOffer();
  if (modes.length === 0) return offer;
  const modeOption = {
    id: "mode",
    name: "Mode",
    category: "mode",
    type: "select",
    currentValue: modes[0],
    options: modes.map((value) => ({ value, name: value })),
  };
  return {
    ...offer,
    modes: { currentModeId: modes[0], availableModes: modes.map((id) => ({ id, name: id })) },
    configOptions: [modeOption, ...(offer.configOptions ?? [])],
  };
}

function choose(sessionId, model) {
  if (!models.includes(model)) throw acp.RequestError.invalidParams(undefined, `no model ${model}`);
  chosen.set(sessionId, model);
  log(`model ${model}`);
}

const say = (ctx, sessionId, text) =>
  ctx.client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });

async function askPermission(ctx, sessionId, path, { announced = true, titled = true } = {}) {
  const toolCall = {
    toolCallId: "edit-1",
    ...(titled ? { title: `Write ${path}` } : {}),
    kind: "edit",
    locations: [{ path }],
  };
  if (announced)
    await ctx.client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "tool_call", ...toolCall, status: "pending" },
    });
  const answer = await ctx.client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall,
    options: [
      { optionId: "yes", name: "Allow", kind: "allow_once" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
    ],
  });
  const outcome = answer.outcome.outcome === "selected" ? answer.outcome.optionId : "cancelled";
  await ctx.client.notify(acp.methods.client.session.update, {
    sessionId,
    update: {
      sessionUpdate: "tool_call_update",
      toolCallId: "edit-1",
      status: outcome === "yes" ? "completed" : "failed",
    },
  });
  return outcome;
}

async function readFile(ctx, sessionId, path) {
  try {
    const { content } = await ctx.client.request(acp.methods.client.fs.readTextFile, { sessionId, path });
    return `read: ${content.trim()}`;
  } catch (error) {
    return `refused: ${error.message}`;
  }
}

async function judge(ctx, sessionId, cwd, text) {
  const path = join(cwd, "judged.txt");
  let write;
  try {
    await ctx.client.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content: "judged\n" });
    write = "written";
  } catch (error) {
    write = `refused (${error.message})`;
  }
  const permission = await askPermission(ctx, sessionId, path);
  const block = /<expectations>\s*([\s\S]*?)\s*<\/expectations>/.exec(text);
  const expectations = block ? JSON.parse(block[1]) : [];
  const evidence = `client write: ${write}; permission to edit: ${permission}`;
  const answer = {
    expectations: expectations.map((item) => ({ text: item, passed: true, evidence })),
    claims: [],
    user_notes_summary: { uncertainties: [], needs_review: [], workarounds: [] },
  };
  await say(ctx, sessionId, JSON.stringify(answer));
}

acp
  .agent({ name: "acp-double" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    if (process.env.ACP_DOUBLE_INIT_LOG)
      appendFileSync(process.env.ACP_DOUBLE_INIT_LOG, `${JSON.stringify(params)}\n`);
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {},
      agentInfo: { name: "acp-double", version: "1.0.0" },
    };
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `session-${sessions.size + 1}`;
    sessions.set(sessionId, params.cwd);
    return { sessionId, ...sessionOffer() };
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    choose(params.sessionId, params.value);
    return { configOptions: modelOffer().configOptions ?? [] };
  })
  .onRequest("session/set_model", { parse: (params) => params }, ({ params }) => {
    choose(params.sessionId, params.modelId);
    return {};
  })
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    if (!modes.includes(params.modeId))
      throw acp.RequestError.invalidParams(undefined, `no mode ${params.modeId}`);
    log(`mode ${params.modeId}`);
    return {};
  })
  .onNotification(acp.methods.agent.session.cancel, () => log("cancelled"))
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const { sessionId, prompt } = ctx.params;
    const cwd = sessions.get(sessionId);
    const text = prompt.map((block) => block.text ?? "").join(" ");
    const word = text
      .trim()
      .split(/\n\s*\n/)
      .at(-1)
      .trim()
      .split(/\s+/)[0];
    if (process.argv.includes("--judge")) await judge(ctx, sessionId, cwd, text);
    else if (word === "permission-outside")
      await say(
        ctx,
        sessionId,
        `outcome: ${await askPermission(ctx, sessionId, "/etc/skillgym-outside.txt")}`,
      );
    else if (word === "permission-inside")
      await say(ctx, sessionId, `outcome: ${await askPermission(ctx, sessionId, join(cwd, "a.txt"))}`);
    else if (word === "permission-unannounced")
      await say(
        ctx,
        sessionId,
        `outcome: ${await askPermission(ctx, sessionId, join(cwd, "a.txt"), { announced: false })}`,
      );
    else if (word === "permission-untitled")
      await say(
        ctx,
        sessionId,
        `outcome: ${await askPermission(ctx, sessionId, "/etc/skillgym-outside.txt", { announced: false, titled: false })}`,
      );
    else if (word === "probe") {
      const target =
        text
          .trim()
          .split(/\n\s*\n/)
          .at(-1)
          .trim()
          .split(/\s+/)[1] ?? "";
      let seen;
      try {
        seen = `seen ${readFileSync(target, "utf8").trim()}`;
      } catch {
        seen = "hidden";
      }
      await say(ctx, sessionId, `probe: ${seen}`);
    } else if (word === "model") await say(ctx, sessionId, `model: ${chosen.get(sessionId) ?? "none"}`);
    else if (word === "write-inside") {
      try {
        await ctx.client.request(acp.methods.client.fs.writeTextFile, {
          sessionId,
          path: join(cwd, "a.txt"),
          content: "written\n",
        });
        await say(ctx, sessionId, "write: done");
      } catch (error) {
        await say(ctx, sessionId, `write: ${error.message}`);
      }
    } else if (word === "skill-or-not") {
      const path = join(cwd, ".agents", "skills", "haiku", "SKILL.md");
      if (existsSync(path)) {
        await ctx.client.notify(acp.methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: "tool_call",
            toolCallId: "read-1",
            title: "Read SKILL.md",
            kind: "read",
            status: "completed",
            locations: [{ path }],
          },
        });
        await say(ctx, sessionId, "A haiku.");
      } else await say(ctx, sessionId, "Hello.");
    } else if (word === "read-outside")
      await say(ctx, sessionId, await readFile(ctx, sessionId, "/etc/hostname"));
    else if (word === "read-missing") {
      await say(ctx, sessionId, await readFile(ctx, sessionId, join(cwd, "missing.txt")));
      throw new acp.RequestError(-32603, "Internal error", { details: "429 Too Many Requests" });
    } else if (word === "read-inside")
      await say(ctx, sessionId, await readFile(ctx, sessionId, join(cwd, "notes.txt")));
    else if (word === "terminal") {
      try {
        await ctx.client.request("terminal/create", { sessionId, command: "ls" });
        await say(ctx, sessionId, "terminal: given");
      } catch (error) {
        await say(ctx, sessionId, `terminal: ${error.message}`);
      }
    } else if (word === "skill") {
      const path = join(cwd, ".agents", "skills", "haiku", "SKILL.md");
      await ctx.client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: "tool_call",
          toolCallId: "read-1",
          title: "Read SKILL.md",
          kind: "read",
          status: "in_progress",
          locations: [{ path }],
        },
      });
      await ctx.client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: "tool_call_update", toolCallId: "read-1", status: "completed" },
      });
      await say(ctx, sessionId, "A haiku.");
    } else if (word === "hang") {
      spawn("sleep", ["300"], { stdio: "ignore" });
      await new Promise(() => {});
    } else await say(ctx, sessionId, "Hello.");
    return { stopReason: "end_turn", usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
