import { createHash } from "node:crypto";
import { judgeKindOf } from "../contracts/judge-markers.js";
import { runNumberOfPath } from "../contracts/run-marker.js";
import type { SimRule, SimScript } from "../contracts/sim-script.js";
import type { Conversation, SimRequest } from "./conversation.js";
import { topLevelEntries } from "./cwd-entries.js";
import { estimateTokens } from "./encode.js";
import { judgeAnswer } from "./judge-answer.js";
import {
  type ContentBlock,
  choiceOptions,
  contentForTurn,
  matchRule,
  planTurns,
  resolveSkill,
  type SessionDecision,
} from "./plan.js";

/** The simulated model's answer to one request, before a protocol writes it in its wire format. */
export interface SimReply {
  /** A judge's answer, a plain answer (titles, summaries), or an agent's next turn. */
  kind: "judge" | "plain" | "turn";
  /** What the request log says was done. */
  action: string;
  skill?: string;
  /** Milliseconds to wait before answering. */
  latencyMs: number;
  /** Answer with this error status instead, or never answer at all ("hang"). */
  fault?: "hang" | 429 | 500 | 529;
  content: ContentBlock[];
  outputTokens: number;
}

export interface SimModel {
  reply(request: SimRequest): SimReply;
}

interface SimState {
  sessions: Map<string, SessionDecision>;
  promptRuns: Map<string, number>;
  ruleFaults: Map<number, number>;
  /** How often each judge model sent each judge prompt: `flips` verdicts alternate by it. */
  judgeAsks: Map<string, number>;
}

function previousAsks(state: SimState, model: string, text: string): number {
  const key = createHash("sha256").update(model).update("\u0000").update(text).digest("hex");
  const asked = state.judgeAsks.get(key) ?? 0;
  state.judgeAsks.set(key, asked + 1);
  return asked;
}

function decide(state: SimState, script: SimScript, conversation: Conversation): SessionDecision {
  const { rule, index } = matchRule(script, {
    prompt: conversation.prompt,
    model: conversation.model,
    skills: conversation.skills.map((s) => s.name),
    files: () => topLevelEntries(conversation.cwd),
    history: conversation.history ?? [],
    replayed: conversation.replay !== undefined,
  });
  const skill = resolveSkill(rule.skill, conversation.prompt, conversation.skills, choiceOptions(script));
  if (rule.fault) {
    const faulted = state.ruleFaults.get(index) ?? 0;
    if (rule.fault.sessions === undefined || faulted < rule.fault.sessions) {
      state.ruleFaults.set(index, faulted + 1);
      const fault = rule.fault.hang ? "hang" : (rule.fault.status ?? 529);
      return { ruleIndex: index, rule, skill, loadSkill: false, fault };
    }
  }
  const pattern = rule.trigger_pattern;
  const loadSkill = pattern
    ? pattern[patternEntry(state, index, rule, conversation) % pattern.length]!
    : true;
  return { ruleIndex: index, rule, skill, loadSkill, fault: "none" };
}

/**
 * Which entry of a per-run pattern a session takes: run n's (n-1) when its working directory names its run, so a
 * shard, another order or a reused run changes nothing; else (a client of its own, or a rule's `pattern_by:
 * "arrival"`) the sessions of the rule and prompt counted as they come. A faulted session (retried by the harness)
 * does not use up an entry.
 */
function patternEntry(state: SimState, ruleIndex: number, rule: SimRule, conversation: Conversation): number {
  // A replayed request names the capture run's folder: its header names the run it stands for.
  const runNumber =
    rule.pattern_by === "arrival"
      ? undefined
      : (conversation.replay?.runNumber ?? runNumberOfPath(conversation.cwd));
  if (runNumber !== undefined) return runNumber - 1;
  const runKey = `${ruleIndex}\u0000${conversation.prompt}`;
  const run = state.promptRuns.get(runKey) ?? 0;
  state.promptRuns.set(runKey, run + 1);
  return run;
}

function turnAction(content: ContentBlock[]): string {
  const tool = content.find((b) => b.type === "tool_use");
  return tool && tool.type === "tool_use"
    ? `${tool.name} ${JSON.stringify(tool.input).slice(0, 200)}`
    : "final text";
}

// A judge's scripted tool steps come before its answer, one a turn, when its agent offers tools.
function judgeStep(
  script: SimScript,
  conversation: Conversation,
  session: string,
): ContentBlock[] | undefined {
  const steps = script.judge?.steps;
  if (!steps?.length || !conversation.hasTools) return undefined;
  const decision: SessionDecision = {
    // Stryker disable next-line UnaryOperator: equivalent, a judge's steps are planned without their rule's index
    ruleIndex: -1,
    rule: { without_skill: steps },
    skill: undefined,
    // Stryker disable next-line BooleanLiteral: equivalent, with no skill there is none to load
    loadSkill: false,
    fault: "none",
  };
  const turns = planTurns(decision, conversation);
  if (conversation.turn >= turns.length - 1) return undefined;
  return contentForTurn(turns, conversation.turn, session.replace(/[^a-zA-Z0-9]/g, "").slice(0, 16));
}

function stepReply(content: ContentBlock[]): Pick<SimReply, "latencyMs" | "content" | "outputTokens"> {
  return { latencyMs: 0, content, outputTokens: estimateTokens(JSON.stringify(content)) };
}

/** The simulated model: answers judges at once, and plays each agent session as its script's first matching rule. */
export function createSimModel(script: SimScript, options: { latencyMs?: number } = {}): SimModel {
  const state: SimState = {
    sessions: new Map(),
    promptRuns: new Map(),
    ruleFaults: new Map(),
    judgeAsks: new Map(),
  };
  return {
    reply({ conversation, judgeText, session }) {
      // A judge prompt (grader, comparator, analyzer) is answered at once, as a final text turn, tools or not.
      const model = conversation.model;
      const judged =
        judgeKindOf(judgeText) === undefined
          ? undefined
          : judgeAnswer(judgeText, script.judge, {
              model,
              previousAsks: previousAsks(state, model, judgeText),
            });
      if (judged) {
        const step = judgeStep(script, conversation, session);
        if (step)
          return { kind: "judge", action: `judge ${judged.kind} ${turnAction(step)}`, ...stepReply(step) };
        return {
          kind: "judge",
          action: `judge ${judged.kind}`,
          latencyMs: 0,
          content: [{ type: "text", text: judged.text }],
          outputTokens: estimateTokens(judged.text),
        };
      }
      if (!conversation.hasTools) {
        // Side requests (titles, summaries) get a short plain answer.
        const content: ContentBlock[] = [{ type: "text", text: "Simulated answer." }];
        return {
          kind: "plain",
          // Stryker disable next-line StringLiteral: equivalent, the server logs its protocol's own plainAction instead
          action: "side-request",
          latencyMs: 0,
          content,
          outputTokens: 3,
        };
      }

      let decision = state.sessions.get(session);
      if (!decision) {
        decision = decide(state, script, conversation);
        state.sessions.set(session, decision);
      }
      const latencyMs = decision.rule.latency_ms ?? options.latencyMs ?? 0;
      if (decision.fault !== "none") {
        const action = decision.fault === "hang" ? "hang" : `fault ${decision.fault}`;
        return { kind: "turn", action, latencyMs, fault: decision.fault, content: [], outputTokens: 0 };
      }
      const turns = planTurns(decision, conversation);
      const content = contentForTurn(
        turns,
        conversation.turn,
        session.replace(/[^a-zA-Z0-9]/g, "").slice(0, 16),
      );
      return {
        kind: "turn",
        action: turnAction(content),
        ...(decision.skill ? { skill: decision.skill } : {}),
        latencyMs,
        content,
        outputTokens: estimateTokens(JSON.stringify(content)),
      };
    },
  };
}
