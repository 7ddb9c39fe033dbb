import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { AgentEvent } from "../../../src/agents/events.js";
import type { Check } from "../../../src/contracts/checks.js";
import type { GradedExpectation } from "../../../src/contracts/grading.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";
import { gradeChecks } from "../../../src/grade/checks/grade-checks.js";

export type TreeSpec = Record<string, string | Uint8Array>;

export async function makeWorkspace(tree: TreeSpec): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillgym-checks-"));
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.join(dir, ...rel.split("/"));
    if (rel.endsWith("/")) {
      await mkdir(abs, { recursive: true });
      continue;
    }
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
  return dir;
}

export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export function contextFor(workspaceDir: string, extra: Partial<CheckContext> = {}): CheckContext {
  return {
    workspaceDir,
    events: [],
    skillName: "release-notes",
    changes: { created: [], modified: [], deleted: [] },
    commandTimeoutMs: 10_000,
    ...extra,
  };
}

/** The one expectation `gradeChecks` makes of `check` in `ctx`. */
export async function gradeOneIn(ctx: CheckContext, check: Check): Promise<GradedExpectation> {
  const [graded] = await gradeChecks([check], ctx);
  if (!graded) throw new Error("no expectation graded");
  return graded;
}

export function toolUse(name: string, input: Record<string, unknown> = {}): AgentEvent {
  return { kind: "tool_use", id: `toolu_${randomUUID()}`, name, input };
}
