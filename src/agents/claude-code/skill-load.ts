/** The parts of an event this rule reads; structural, so the adapter's rule needs nothing from the shared event module. */
export interface ToolCallLike {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** The skill a tool call loads, if it loads one: a `Skill` call (newer `skill`, older `command`) or a read of SKILL.md. */
export function skillLoadedBy(event: ToolCallLike): string | undefined {
  if (event.kind !== "tool_use") return undefined;
  const input = event.input as Record<string, unknown>;
  if (event.name === "Skill") {
    const value = input.skill ?? input.command;
    return typeof value === "string" ? value.replace(/^\//, "") : undefined;
  }
  if (event.name === "Read") {
    const path = input.file_path;
    if (typeof path !== "string") return undefined;
    const match = /[\\/]skills[\\/]([^\\/]+)[\\/]SKILL\.md$/i.exec(path);
    return match?.[1];
  }
  return undefined;
}
