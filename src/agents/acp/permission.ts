import type { ToolPolicy } from "../agent.js";
import { isObject, type Json } from "../json-lines.js";
import { type AcpToolCall, isSkillTool, mergeToolCall, pathsOf } from "./tool-call.js";
import { insideRoots } from "./workspace-paths.js";

/** What skillgym answers a `session/request_permission`: the option it picks (or none: cancelled) and why. */
export interface PermissionDecision {
  allowed: boolean;
  /** Why it was refused; empty when allowed. */
  reason: string;
  outcome: { outcome: "cancelled" } | { outcome: "selected"; optionId: string };
}

interface Option {
  optionId: string;
  kind: string;
}

// What a read-only run (a judge) may do: read, search, think, and load a skill (which only reads it).
const READ_ONLY_KINDS = new Set(["read", "search", "think"]);

/** Why a tool call is refused under the run's policy, or undefined when it is allowed. */
export function refusalOf(
  call: AcpToolCall,
  tools: ToolPolicy,
  roots: readonly string[],
): string | undefined {
  const outside = pathsOf(call).find((path) => !insideRoots(path, roots));
  if (outside !== undefined) return `${outside} is outside the workspace`;
  if (call.kind === "fetch") return "web access is not allowed in a run";
  const kind = call.kind ?? "other";
  if (tools === "read-only" && !isSkillTool(call) && !READ_ONLY_KINDS.has(kind))
    return `a read-only run may not use a ${kind} tool (${call.name ?? call.title ?? "unnamed"})`;
  return undefined;
}

function pick(options: readonly Option[], kinds: readonly string[]): string | undefined {
  for (const kind of kinds) {
    const found = options.find((option) => option.kind === kind);
    if (found) return found.optionId;
  }
  return undefined;
}

/**
 * The answer to a permission request by the run's policy: inside the workspace, allowed once (never "always", so
 * every later call is asked about again); outside it, on the web, or beyond a read-only run's reading, refused once.
 * With no option of the needed kind the request is answered "cancelled", which refuses it.
 */
export function decidePermission(
  request: Json,
  tools: ToolPolicy,
  roots: readonly string[],
  known?: AcpToolCall,
): PermissionDecision {
  const call = mergeToolCall(known, isObject(request.toolCall) ? request.toolCall : {});
  // Stryker disable next-line ArrayDeclaration: equivalent, an entry that is no object is dropped below
  const options = (Array.isArray(request.options) ? request.options : []).flatMap((o) =>
    isObject(o) && typeof o.optionId === "string" && typeof o.kind === "string"
      ? [{ optionId: o.optionId, kind: o.kind }]
      : [],
  );
  const allowOption = pick(options, ["allow_once", "allow_always"]);
  const reason =
    refusalOf(call, tools, roots) ??
    (allowOption === undefined ? "the agent offered no option to allow it" : undefined);
  const optionId = reason === undefined ? allowOption : pick(options, ["reject_once", "reject_always"]);
  return {
    allowed: reason === undefined,
    reason: reason ?? "",
    outcome: optionId === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId },
  };
}
