import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent, AgentRunRequest, AgentRunResult } from "../../src/agents/agent.js";
import { type Judge, JudgeError, type JudgeRequest } from "../../src/judge/judge.js";
import { createRedactor } from "../../src/redact.js";
import { finishedProcess } from "../tune/fake-agent.js";

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{5,}/g) ?? []);

async function installedDescriptions(cwd: string): Promise<[string, string][]> {
  const folder = join(cwd, ".claude/skills");
  const names = await readdir(folder).catch(() => [] as string[]);
  return Promise.all(
    names.map(async (name): Promise<[string, string]> => {
      const text = await readFile(join(folder, name, "SKILL.md"), "utf8");
      return [name, /^description: (.*)$/m.exec(text)?.[1] ?? ""];
    }),
  );
}

/**
 * An agent in this process that loads every installed skill whose description shares a word of five letters or more
 * with the query, and records each request. Unsimulated, each run costs `costUsd`.
 */
export function wordAgent(
  options: { simulated?: boolean; costUsd?: number; name?: string; continuesConversations?: boolean } = {},
) {
  const requests: AgentRunRequest[] = [];
  /** The entries of each run's working folder as the run started. */
  const folders: string[][] = [];
  const agent: Agent = {
    name: options.name ?? "word",
    skillsFolder: ".claude/skills",
    binary: "word",
    simulated: options.simulated ?? true,
    redactor: createRedactor([]),
    ...(options.continuesConversations ? { continuesConversations: true } : {}),
    async run(request) {
      requests.push(request);
      folders.push((await readdir(request.cwd)).sort());
      const asked = words(request.prompt);
      const loads = (await installedDescriptions(request.cwd)).filter(([, description]) =>
        [...words(description)].some((w) => asked.has(w)),
      );
      const result: AgentRunResult = {
        outcome: "success",
        events: loads.map(([name]) => ({ kind: "skill_load", skill: name, via: "tool" }) as const),
        result: {
          kind: "result",
          isError: false,
          subtype: "success",
          text: "done",
          ...(options.costUsd !== undefined ? { costUsd: options.costUsd } : {}),
        },
        process: finishedProcess(),
      };
      return result;
    },
  };
  return { agent, requests, folders };
}

/** What a scripted improver does on one ask: answer with this text, or fail with this error. */
export type ImproverStep = string | Error | ((request: JudgeRequest) => string);

/** An improver in this process that answers its asks in order (the last step again when they run out). */
export function scriptedImprover(
  steps: ImproverStep[],
  options: { simulated?: boolean; costUsd?: number } = {},
) {
  const requests: JudgeRequest[] = [];
  const judge: Judge = {
    backend: "sim",
    model: "scripted",
    simulated: options.simulated ?? true,
    async complete(request) {
      requests.push(request);
      const step = steps[Math.min(requests.length - 1, steps.length - 1)]!;
      if (step instanceof Error) throw step;
      return {
        text: typeof step === "function" ? step(request) : step,
        model: "scripted-1",
        inputTokens: 10,
        outputTokens: 5,
        costUsd: options.costUsd ?? 0,
        durationMs: 1,
      };
    },
  };
  return { judge, requests };
}

export const improverDown = () => new JudgeError("the model is down", false, { costUsd: 0.25 });
