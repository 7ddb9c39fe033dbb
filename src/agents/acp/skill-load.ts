import type { SkillLoad } from "../skill-folders.js";
import { type AcpToolCall, isSkillTool, pathsOf } from "./tool-call.js";

const str = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

// A path ending in `skills/<name>/SKILL.md`; in a command line or a title it may sit among other words.
const SKILL_FILE = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i;
const SKILL_FILE_IN_TEXT = /(?:^|[\\/\s'"`])(?:[^\s'"`]*[\\/])?skills[\\/]([^\\/\s'"`]+)[\\/]SKILL\.md\b/i;

// Gemini CLI titles its `activate_skill` call `"<name>": <description>`.
const QUOTED_NAME = /^["'`]([^"'`]+)["'`]/;

function skillToolTarget(call: AcpToolCall, listed: readonly string[]): string | undefined {
  const named = str(call.input.skill) ?? str(call.input.name) ?? str(call.input.skill_name);
  if (named) return named.replace(/^\//, "");
  const title = call.title;
  if (title === undefined) return undefined;
  const quoted = QUOTED_NAME.exec(title)?.[1];
  if (quoted) return quoted;
  // A title that names one of the run's skills and nothing else the tool could mean.
  // Stryker disable next-line MethodExpression: equivalent, no skill is named "" (an empty word names none)
  const words = title.split(/[\s:"'`,()]/).filter(Boolean);
  return listed.find((skill) => words.includes(skill));
}

/**
 * The skill an ACP tool call loads, if it loads one: the agent's skill tool naming it (its input, or the title
 * Gemini CLI gives it), a read of a `…/skills/<name>/SKILL.md` (its locations, input or title), or a shell command
 * naming that file (as Codex reads skills). `listed` are the run's skills, by which a bare title is read.
 */
// Stryker disable next-line ArrayDeclaration: equivalent, a title's word never holds a space, as the added name does
export function acpSkillLoad(call: AcpToolCall, listed: readonly string[] = []): SkillLoad | undefined {
  if (isSkillTool(call)) {
    const skill = skillToolTarget(call, listed);
    return skill ? { skill, via: "tool" } : undefined;
  }
  if (call.kind === "read") {
    for (const path of pathsOf(call)) {
      const match = SKILL_FILE.exec(path);
      if (match?.[1]) return { skill: match[1], via: "read" };
    }
    // Stryker disable next-line StringLiteral: equivalent, any text naming no SKILL.md matches nothing
    const inTitle = SKILL_FILE_IN_TEXT.exec(call.title ?? "");
    return inTitle?.[1] ? { skill: inTitle[1], via: "read" } : undefined;
  }
  if (call.kind === "execute") {
    // Stryker disable next-line StringLiteral: equivalent, any text naming no SKILL.md matches nothing
    const command = str(call.input.command) ?? call.title ?? "";
    const match = SKILL_FILE_IN_TEXT.exec(command);
    return match?.[1] ? { skill: match[1], via: "read" } : undefined;
  }
  return undefined;
}
