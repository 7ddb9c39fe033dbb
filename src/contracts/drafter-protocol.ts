// How a draft-evals prompt tells the simulator what to draft: one JSON object between tags, `<` escaped.
const OPEN = "<draft-request>";
const CLOSE = "</draft-request>";
const RETRY_OPEN = "<retry-reason>";

export interface DraftRequest {
  name: string;
  description: string;
  triggers: number;
  evals: number;
}

export function draftRequestBlock(request: DraftRequest): string {
  return `${OPEN}\n${JSON.stringify(request).replace(/</g, "\\u003c")}\n${CLOSE}`;
}

export function retryReasonBlock(reason: string): string {
  return `${RETRY_OPEN}\n${reason.replace(/</g, "\\u003c")}\n</retry-reason>`;
}

export function isRetry(text: string): boolean {
  return text.includes(RETRY_OPEN);
}

export function readDraftRequest(text: string): DraftRequest | undefined {
  const open = text.indexOf(OPEN);
  if (open < 0) return undefined;
  const close = text.indexOf(CLOSE, open);
  // Stryker disable next-line EqualityOperator: equivalent, a closing tag is found only after the opening one
  if (close < 0) return undefined;
  try {
    const value = JSON.parse(text.slice(open + OPEN.length, close)) as Partial<DraftRequest>;
    if (typeof value.name !== "string" || typeof value.description !== "string") return undefined;
    const count = (n: unknown, fallback: number) =>
      Number.isInteger(n) && (n as number) >= 0 ? Math.min(n as number, 200) : fallback;
    return {
      name: value.name,
      description: value.description,
      triggers: count(value.triggers, 20),
      evals: count(value.evals, 3),
    };
  } catch {}
  return undefined;
}
