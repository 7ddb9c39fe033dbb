// A small strict XML reader for tests: well-formedness (nesting, quoted attributes, known entities, no raw
// specials) is checked and the element tree returned; anything else throws with the offset.
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.-]*/;

function decode(raw: string, at: number): string {
  if (/[<]/.test(raw)) throw new Error(`raw < at ${at}`);
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(raw)) throw new Error(`control character at ${at}`);
  return raw.replace(/&([^;]*);|&/g, (match, name: string | undefined) => {
    if (name === undefined) throw new Error(`bare & at ${at}`);
    if (name in ENTITIES) return ENTITIES[name] as string;
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    if (/^#x[0-9a-f]+$/i.test(name)) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    throw new Error(`unknown entity ${match} at ${at}`);
  });
}

export function parseXml(xml: string): XmlElement {
  let i = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(xml);
  if (declaration) i = declaration[0].length;
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  while (i < xml.length) {
    const top = stack.at(-1) as XmlElement;
    if (xml[i] !== "<") {
      const end = xml.indexOf("<", i);
      const raw = xml.slice(i, end === -1 ? xml.length : end);
      if (stack.length === 1 && raw.trim() !== "") throw new Error(`text outside the root at ${i}`);
      top.text += decode(raw, i);
      i = end === -1 ? xml.length : end;
      continue;
    }
    if (xml.startsWith("</", i)) {
      const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(i));
      if (!close || close[1] !== top.name)
        throw new Error(`mismatched close tag at ${i} (open: ${top.name})`);
      stack.pop();
      i += close[0].length;
      continue;
    }
    const name = NAME.exec(xml.slice(i + 1));
    if (!name) throw new Error(`bad tag at ${i}`);
    const element: XmlElement = { name: name[0], attributes: {}, children: [], text: "" };
    i += 1 + name[0].length;
    for (;;) {
      const space = /^\s*/.exec(xml.slice(i))?.[0] ?? "";
      i += space.length;
      if (xml.startsWith("/>", i) || xml[i] === ">") break;
      if (space === "") throw new Error(`no space before an attribute at ${i}`);
      const attribute = /^([A-Za-z_][\w.:-]*)="([^"]*)"/.exec(xml.slice(i));
      if (!attribute) throw new Error(`bad attribute at ${i}`);
      const [whole, key, value] = attribute as unknown as [string, string, string];
      if (key in element.attributes) throw new Error(`attribute ${key} twice at ${i}`);
      element.attributes[key] = decode(value, i);
      i += whole.length;
    }
    if (stack.length === 1 && root.children.length > 0) throw new Error(`a second root element at ${i}`);
    top.children.push(element);
    if (xml.startsWith("/>", i)) i += 2;
    else {
      i += 1;
      stack.push(element);
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
  const only = root.children[0];
  if (!only || root.children.length !== 1) throw new Error("no single root element");
  return only;
}

export function elements(node: XmlElement, name: string): XmlElement[] {
  return [...(node.name === name ? [node] : []), ...node.children.flatMap((c) => elements(c, name))];
}
