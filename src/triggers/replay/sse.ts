/** The data of each server-sent event in a stream: its `data:` lines joined; an event without data is left out. */
export function sseData(text: string): string[] {
  const found: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      // The rest of the line whatever it holds: a regular expression's `.` would stop at U+2028 and U+2029, which
      // JSON leaves unescaped in a model's answer.
      .flatMap((line) => (line.startsWith("data:") ? [line.slice(line.startsWith("data: ") ? 6 : 5)] : []))
      .join("\n");
    if (data.trim()) found.push(data);
  }
  return found;
}
