export interface GeminiArgsRequest {
  prompt: string;
  model: string | undefined;
  policyFile: string;
  systemPrompt?: string | undefined;
  /** A session file holding a prior conversation, which `--session-file` loads as the history before the prompt. */
  sessionFile?: string | undefined;
}

/** The command line of one headless run; a model named up front also skips Gemini CLI's router request. */
export function geminiArgs(request: GeminiArgsRequest): string[] {
  // Gemini CLI has no flag that adds to its system prompt, so a caller's system prompt leads the prompt.
  const prompt =
    request.systemPrompt !== undefined ? `${request.systemPrompt}\n\n${request.prompt}` : request.prompt;
  const args = ["-p", prompt, "--output-format", "stream-json", "--policy", request.policyFile];
  if (request.model) args.push("-m", request.model);
  if (request.sessionFile) args.push("--session-file", request.sessionFile);
  return args;
}
