// Errors are data: a stable code, a message that says what went wrong, and a hint that says what to do.
export type ErrorCode =
  | "BAD_INPUT"
  | "INVALID_SKILL"
  | "INVALID_SUITE"
  | "NO_EVALS"
  | "USAGE"
  | "AGENT_UNAVAILABLE"
  | "NO_CREDENTIALS"
  | "WORKSPACE"
  | "CANCELLED";

export class SkillgymError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly file: string | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; file?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "SkillgymError";
    this.code = code;
    this.hint = options.hint;
    this.file = options.file;
  }
}

/** Exit codes CI can gate on (SPEC §6). */
export const ExitCode = {
  ok: 0,
  gateFailed: 1,
  badInput: 2,
  agentUnavailable: 3,
} as const;

export function exitCodeFor(error: SkillgymError): number {
  switch (error.code) {
    case "AGENT_UNAVAILABLE":
    case "NO_CREDENTIALS":
      return ExitCode.agentUnavailable;
    case "CANCELLED":
      return 130;
    default:
      return ExitCode.badInput;
  }
}
