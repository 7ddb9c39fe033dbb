import type { EvalId } from "../contracts/evals.js";

/** A signed number as text, "+0.50" / "-13.0"; a value that rounds to zero is "+0.00", never "-0.00". */
export function formatSigned(value: number, decimals: number): string {
  const text = Math.abs(value).toFixed(decimals);
  return `${value < 0 && Number(text) !== 0 ? "-" : "+"}${text}`;
}

export function evalLabel(id: EvalId, name: string | undefined): string {
  return name && name !== `eval-${id}` ? `Eval ${id} (${name})` : `Eval ${id}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function quoted(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}
