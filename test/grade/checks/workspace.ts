import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { AgentEvent } from "../../../src/agents/events.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";

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

export function toolUse(name: string, input: Record<string, unknown> = {}): AgentEvent {
  return { kind: "tool_use", id: `toolu_${randomUUID()}`, name, input };
}
