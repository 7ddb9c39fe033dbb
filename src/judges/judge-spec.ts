import { judgeBackends } from "../judge/create.js";
import type { JudgeBackend } from "../judge/judge.js";

/** A judge named on the command line: `backend` or `backend:model` (the model may hold colons itself). */
export interface JudgeSpec {
  id: string;
  backend: JudgeBackend;
  model?: string;
}

/** Reads `a,b:model,…`; undefined entries are reported by the caller. */
export function parseJudgeSpecs(value: string): { specs: JudgeSpec[]; problems: string[] } {
  const specs: JudgeSpec[] = [];
  const problems: string[] = [];
  for (const raw of value.split(",").map((s) => s.trim())) {
    if (raw === "") continue;
    const colon = raw.indexOf(":");
    const [backend, model] = colon < 0 ? [raw, undefined] : [raw.slice(0, colon), raw.slice(colon + 1)];
    if (!(judgeBackends as readonly string[]).includes(backend)) {
      problems.push(`unknown judge "${backend}" in "${raw}"; expected one of ${judgeBackends.join(", ")}`);
      continue;
    }
    if (model === "") {
      problems.push(`"${raw}" names no model after the colon`);
      continue;
    }
    if (specs.some((s) => s.id === raw)) {
      problems.push(`${raw} named twice; name each judge once`);
      continue;
    }
    specs.push({ id: raw, backend: backend as JudgeBackend, ...(model ? { model } : {}) });
  }
  return { specs, problems };
}
