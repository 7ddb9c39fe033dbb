import { z } from "zod";

/** A skill that loaded in a run: by its skill tool or by reading its SKILL.md. */
export const ActivationFired = z.strictObject({
  /** The skill's own name (a synthetic install name is mapped back to it). */
  skill: z.string(),
  via: z.enum(["tool", "read"]),
  /** 1-based model turn in which it loaded. */
  turn: z.number().int().positive(),
  tool_use_id: z.string().optional(),
});
export type ActivationFired = z.infer<typeof ActivationFired>;

/** What a bundled file of the skill is, by its folder: SKILL.md, references/, scripts/, assets/, anything else. */
export const BundledKind = z.enum(["skill_md", "reference", "script", "asset", "other"]);
export type BundledKind = z.infer<typeof BundledKind>;

/** A file of the skill the run opened: read with a read tool, or named in a shell command (a script run, a cat). */
export const OpenedFile = z.strictObject({
  /** Path relative to the skill folder. */
  path: z.string(),
  kind: BundledKind,
  how: z.enum(["read", "shell", "other"]),
  turn: z.number().int().positive(),
  tool_use_id: z.string(),
});
export type OpenedFile = z.infer<typeof OpenedFile>;

/** A tool the agent used, by its own name and its kind, with how often. */
export const ToolTally = z.strictObject({ tool: z.string(), kind: z.string(), calls: z.number().int() });
export type ToolTally = z.infer<typeof ToolTally>;

// run-<k>/activation.json: what a run did with the skill, read from the agent-neutral events of any adapter.
export const Activation = z.strictObject({
  /** The skill under test, by its own name. */
  skill: z.string(),
  /** `with_skill`, `without_skill`, `old_skill`, `trigger` or `catalog`. */
  configuration: z.string(),
  agent: z.string().optional(),
  /** Every skill that loaded, in order. */
  fired: z.array(ActivationFired),
  /** Whether the skill under test loaded at all. */
  skill_fired: z.boolean(),
  /** The skill's files (relative paths), so coverage can name the ones never opened. */
  bundled_files: z.array(z.string()),
  files_opened: z.array(OpenedFile),
  /** When the skill under test did not load: the tools the agent used instead. */
  tools_instead: z.array(ToolTally).optional(),
  /** Skills the agent listed that the run did not stage and are not the agent's own built-ins. */
  unexpected_skills: z.array(z.string()),
  contaminated: z.boolean(),
  /** Why the run is contaminated; empty when it is not. */
  contamination: z.array(z.string()),
  /**
   * A sandboxed run: what the sandbox's network filter refused (hosts asked for through its proxy). Reads and writes
   * the sandbox prevented are not listed: files outside it are simply absent or read-only there.
   */
  sandbox_refused: z.strictObject({ hosts: z.array(z.string()) }).optional(),
});
export type Activation = z.infer<typeof Activation>;
