/** The data of each server-sent event in a stream: its `data:` lines joined; an event without data is left out. */
export function sseData(text: string): string[] {
  const found: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .flatMap((line) => /^data: ?(.*)$/.exec(line)?.[1] ?? [])
      .join("\n");
    if (data.trim()) found.push(data);
  }
  return found;
}
