import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { createTempRoot } from "../../workspace/temp-root.js";
import type { Json } from "../json-lines.js";
import { runProcess } from "../process/run-process.js";
import { type ModelChoice, modelChoiceOf } from "./models.js";
import type { AcpProfile } from "./profile.js";

const PROBE_TIMEOUT_MS = 60_000;
// Stryker disable next-line ObjectLiteral: equivalent, ACP reads an absent capability as false
const NO_CLIENT_METHODS = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

/**
 * What an ACP agent offers for model selection, asked before any run: the agent started in an empty folder and a
 * fresh home, `initialize` and `session/new`, then ended; no prompt is sent. Undefined: it offers none. Throws when
 * the agent cannot be started or does not answer (within `timeoutMs`).
 */
export async function probeModelChoice(
  profile: AcpProfile,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ModelChoice | undefined> {
  const root = await createTempRoot("run");
  const setup = {
    home: join(root, "home"),
    cwd: join(root, "work"),
    tools: "eval" as const,
    model: undefined,
  };
  try {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the fresh temp root holds neither folder yet
    await mkdir(setup.home, { recursive: true });
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the fresh temp root holds neither folder yet
    await mkdir(setup.cwd, { recursive: true });
    await profile.prepare(setup);
    let session: Json | undefined;
    let failure: unknown;
    const line = profile.commandLine(setup);
    const proc = await runProcess({
      ...line,
      cwd: setup.cwd,
      env: profile.environment(setup),
      timeoutMs,
      killGraceMs: 1500,
      attach: (io, end) => {
        const stream = acp.ndJsonStream(
          Writable.toWeb(io.stdin) as WritableStream<Uint8Array>,
          Readable.toWeb(io.stdout) as ReadableStream<Uint8Array>,
        );
        // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, the SDK uses the name only in its diagnostics
        const app = acp.client({ name: "skillgym" });
        app
          .connectWith(stream, async (ctx) => {
            await ctx.request(acp.methods.agent.initialize, {
              protocolVersion: acp.PROTOCOL_VERSION,
              clientCapabilities: NO_CLIENT_METHODS,
              clientInfo: { name: "skillgym", title: "skillgym", version: "0" },
            });
            session = (await ctx.request(acp.methods.agent.session.new, {
              cwd: setup.cwd,
              mcpServers: [],
            })) as unknown as Json;
          })
          .catch((error: unknown) => {
            failure = error;
          })
          .finally(() => end("done"));
      },
    });
    if (!session) {
      // Out of time, the connection's close is the process's end, not the cause.
      const why = proc.timedOut
        ? `no answer in ${timeoutMs / 1000} s`
        : failure instanceof Error
          ? failure.message
          : "";
      throw new Error(
        `${profile.label} did not open a session${why ? ` (${why})` : ""}${proc.stderrTail ? `: ${proc.stderrTail.trim()}` : ""}`,
      );
    }
    return modelChoiceOf(session);
  } finally {
    await rm(root, {
      recursive: true,
      // Stryker disable next-line BooleanLiteral: equivalent, the root was made above and nothing else removes it
      force: true,
    });
  }
}
