import { isToolNamed } from "../../agents/registry.js";
import type { Check } from "../../contracts/checks.js";
import type { CheckContext, CheckVerdict } from "./context.js";

type ToolCalledCheck = Extract<Check, { type: "tool_called" }>;

interface CallBounds {
  min: number;
  max: number | undefined;
}

// `max` alone means "no more than"; otherwise the tool must be called at least once unless `min` says otherwise.
function boundsOf(check: ToolCalledCheck): CallBounds {
  return { min: check.min ?? (check.max !== undefined ? 0 : 1), max: check.max };
}

export function describeToolCalled(check: ToolCalledCheck): string {
  return `the ${check.name} tool is ${expectedCalls(boundsOf(check))}`;
}

export function gradeToolCalled(check: ToolCalledCheck, ctx: CheckContext): CheckVerdict {
  const { min, max } = boundsOf(check);
  const counts = new Map<string, number>();
  let count = 0;
  for (const event of ctx.events) {
    if (event.kind !== "tool_use") continue;
    counts.set(event.name, (counts.get(event.name) ?? 0) + 1);
    // The agent's own tool name (`Bash`) or the normalised kind (`shell`) both name a call.
    if (isToolNamed(event, check.name)) count++;
  }
  const seen =
    counts.size === 0
      ? "No tool was called"
      : `Tools called: ${[...counts].map(([name, n]) => `${name} ×${n}`).join(", ")}`;
  const found = `${check.name} was called ${times(count)}`;
  if (max !== undefined && min > max) {
    return {
      passed: false,
      evidence: `min ${min} is greater than max ${max}, so the check can never pass. ${found}`,
    };
  }
  const passed = count >= min && (max === undefined || count <= max);
  return { passed, evidence: `${found}. ${seen}` };
}

function expectedCalls({ min, max }: CallBounds): string {
  if (max === undefined) return min === 0 ? "called any number of times" : `called at least ${times(min)}`;
  if (min === max) return max === 0 ? "not called" : `called exactly ${times(min)}`;
  if (min === 0) return `called at most ${times(max)}`;
  return `called between ${min} and ${max} times`;
}

function times(count: number): string {
  return count === 1 ? "once" : `${count} times`;
}
