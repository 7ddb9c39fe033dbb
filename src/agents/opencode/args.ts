export interface OpenCodeArgsRequest {
  /** The working folder: OpenCode takes its project folder from $PWD, not from the folder it was started in. */
  cwd: string;
  /** `provider/model`; none: OpenCode's own default. */
  model?: string | undefined;
}

/**
 * The command line of one headless `opencode run`; a title of its own spares the extra title request. The prompt
 * goes to stdin: OpenCode wraps every message argument holding a space in double quotes, and its argument parser
 * turns a word such as `1.0` after `--` into a number it then fails on.
 */
export function openCodeArgs(request: OpenCodeArgsRequest): string[] {
  const args = ["run", "--format", "json", "--title", "skillgym", "--dir", request.cwd];
  if (request.model) args.push("--model", request.model);
  return args;
}

/** The model id a provider/model name prices as: the part after the provider. */
export function modelIdOf(model: string): string {
  // Without a slash indexOf gives -1: the whole name.
  return model.slice(model.indexOf("/") + 1);
}
