// JSON.parse reports positions differently across Node versions (none at all for some errors on Node 20),
// so a small scanner of our own finds where a document first goes wrong.

export interface JsonSyntaxError {
  /** Offset in UTF-16 code units into the text. */
  offset: number;
  message: string;
}

export interface LineColumn {
  line: number;
  column: number;
}

class Stop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.skipSpace();
    if (scanner.atEnd()) return { offset: 0, message: "the file is empty; expected a JSON value" };
    scanner.value();
    scanner.skipSpace();
    if (!scanner.atEnd()) scanner.fail("unexpected text after the end of the JSON value");
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { offset: error.offset, message: error.message };
    throw error;
  }
}

/** 1-based line and column of an offset; a column counts UTF-16 code units, as most editors do. */
export function lineColumnAt(text: string, offset: number): LineColumn {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class Scanner {
  private pos = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(message: string, offset = this.pos): never {
    throw new Stop(offset, message);
  }

  skipSpace(): void {
    while (!this.atEnd() && " \t\n\r".includes(this.peek())) this.pos++;
  }

  private peek(): string {
    return this.text.charAt(this.pos);
  }

  private unexpected(expected: string): never {
    if (this.atEnd()) this.fail(`unexpected end of file; expected ${expected}`);
    this.fail(`unexpected ${JSON.stringify(this.peek())}; expected ${expected}`);
  }

  value(): void {
    this.skipSpace();
    const ch = this.peek();
    if (ch === "{") this.object();
    else if (ch === "[") this.array();
    else if (ch === '"') this.string();
    else if (ch === "-" || (ch >= "0" && ch <= "9")) this.number();
    else this.literal(ch);
  }

  private literal(ch: string): void {
    for (const word of ["true", "false", "null"]) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    if (ch === "'") this.fail("strings must use double quotes");
    this.unexpected("a value (object, array, string, number, true, false or null)");
  }

  private object(): void {
    this.pos++;
    this.skipSpace();
    if (this.peek() === "}") {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.peek() !== '"') {
        if (this.peek() === "}") this.fail("trailing comma before '}'");
        this.unexpected("a property name in double quotes");
      }
      this.string();
      this.skipSpace();
      if (this.peek() !== ":") this.unexpected("':' after the property name");
      this.pos++;
      this.value();
      this.skipSpace();
      const next = this.peek();
      if (next === "}") {
        this.pos++;
        return;
      }
      if (next !== ",") this.unexpected("',' or '}' after the property value");
      this.pos++;
    }
  }

  private array(): void {
    this.pos++;
    this.skipSpace();
    if (this.peek() === "]") {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.peek() === "]") this.fail("trailing comma before ']'");
      this.value();
      this.skipSpace();
      const next = this.peek();
      if (next === "]") {
        this.pos++;
        return;
      }
      if (next !== ",") this.unexpected("',' or ']' after the array element");
      this.pos++;
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.atEnd()) this.fail("unterminated string", start);
      const code = this.text.charCodeAt(this.pos);
      if (code === 34) {
        this.pos++;
        return;
      }
      if (code < 0x20) {
        this.fail("control character inside a string; write a line break as \\n and a tab as \\t");
      }
      if (code === 92) this.escape();
      else this.pos++;
    }
  }

  private escape(): void {
    const ch = this.text.charAt(this.pos + 1);
    if ('"\\/bfnrt'.includes(ch) && ch !== "") {
      this.pos += 2;
      return;
    }
    // Stryker disable next-line Regex: equivalent, the slice is at most four characters long, so both anchors are redundant
    if (ch === "u" && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
      this.pos += 6;
      return;
    }
    this.fail(`invalid escape sequence \\${ch}`);
  }

  private number(): void {
    const pattern = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    pattern.lastIndex = this.pos;
    const match = pattern.exec(this.text);
    if (!match) this.fail("invalid number");
    this.pos += match[0].length;
    const next = this.peek();
    if (/[0-9.eE]/.test(next)) this.fail("invalid number");
  }
}
