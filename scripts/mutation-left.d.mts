export interface LeftEntry {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  reason: string;
  /** Where the entry was written: `<list file>[<index>]`. */
  at: string;
}
interface Position {
  line: number;
  column: number;
}
interface Mutant {
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
}
export function readLeft(dir: string): Promise<LeftEntry[]>;
export function originalOf(source: string, mutant: Mutant): string;
export function entryFor(
  entries: LeftEntry[],
  file: string,
  source: string,
  mutant: Mutant,
): LeftEntry | undefined;
