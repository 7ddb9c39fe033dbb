// Small statistics over a list of measurements.
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** "median (min–max)" with the given digits. */
export function spread(xs, digits = 2) {
  if (xs.length === 0) return "–";
  const f = (n) => n.toFixed(digits);
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}
