/** What a tool call does, whatever the agent calls the tool: every adapter gives its calls one of these. */
export type ToolKind = "shell" | "read" | "write" | "edit" | "search" | "skill" | "other";
