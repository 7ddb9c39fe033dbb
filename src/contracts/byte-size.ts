const multiples: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** `200MB`, `1.5 GB`, `512kb`, `1000` (bytes): binary multiples; undefined when it is not a size above 0. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib|tb|tib)?\s*$/i.exec(text);
  if (!match?.[1]) return undefined;
  const multiple = multiples[(match[2] ?? "b").toUpperCase().replace("IB", "B")];
  if (multiple === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * multiple);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}
