/** The parts of a tool call this rule reads. */
export interface GeminiToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** The skill a tool call loads, if it loads one: an `activate_skill` call naming it, or a `read_file` of its SKILL.md. */
export function geminiSkillLoad(call: GeminiToolCall): { skill: string; via: "tool" | "read" } | undefined {
  if (call.name === "activate_skill") {
    const name = call.input.name;
    return typeof name === "string" && name ? { skill: name, via: "tool" } : undefined;
  }
  if (call.name === "read_file") {
    const path = call.input.file_path ?? call.input.absolute_path;
    if (typeof path !== "string") return undefined;
    const match = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i.exec(path);
    return match?.[1] ? { skill: match[1], via: "read" } : undefined;
  }
  return undefined;
}
