import { type SkillLoad, skillLoadBy } from "../skill-folders.js";

/** The parts of a tool call this rule reads. */
export interface GeminiToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** The skill a tool call loads, if it loads one: an `activate_skill` call naming it, or a `read_file` of its SKILL.md. */
export function geminiSkillLoad(call: GeminiToolCall): SkillLoad | undefined {
  return skillLoadBy(
    {
      tool: { name: "activate_skill", skillKey: "name" },
      read: { name: "read_file", pathKeys: ["file_path", "absolute_path"] },
    },
    call.name,
    call.input,
  );
}
