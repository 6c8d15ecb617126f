// The tree of an ISO 20022 file, built in one pass over text XMLValidator has already accepted (parseXml in
// iso-readers.ts validates first; this code never sees a file that is not well-formed). It builds exactly the
// object fast-xml-parser's XMLParser builds with the options parseXml used before (attributes as `@name`
// strings, namespace prefixes and xmlns attributes dropped, text trimmed and kept as written: no entity is
// expanded, `&amp;` stays `&amp;`), about ten times faster: XMLParser keeps an ordered node list, a path matcher
// turned into a string for every callback, then compresses the list into objects; here the objects are built
// as the elements close. test/unit/bank-files/xml-tree.test.ts compares both on the corpus, the fixtures and
// generated documents.
//
// Only the shapes bank files use are handled: the XML declaration at the very start, elements and attributes
// with ASCII names, text, entity references, comments, CDATA inside elements. Anything else (another
// processing instruction, non-ASCII or reserved names, CDATA or a second element at the top
// level, more than 100 levels) returns undefined and the caller hands the file to XMLParser itself, whose quirks
// there are its own.

export type XmlTree = { [key: string]: unknown };

// XMLParser refuses (__proto__, constructor, prototype) or renames (toString → __toString…) these as element
// names; left to it.
const RESERVED = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

/** XMLParser's default nesting limit (it throws past it): deeper files go to it. */
const MAX_DEPTH = 100;

const GT = 62;
const SLASH = 47;
const QUESTION = 63;
const BANG = 33;
const EQUALS = 61;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

function isXmlSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** A–Z a–z 0–9 _ . - : (ASCII name characters; anything else goes to XMLParser). */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 58) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

/** Sets `name` on `node` the way XMLParser does: a second sibling of a name turns the value into a list. */
function addChild(node: XmlTree, name: string, value: unknown, isArray: (name: string) => boolean): void {
  if (Object.hasOwn(node, name)) {
    const existing = node[name];
    if (Array.isArray(existing)) existing.push(value);
    else node[name] = [existing, value];
  } else {
    node[name] = isArray(name) ? [value] : value;
  }
}

/**
 * An element's value as XMLParser renders it: its child elements (`node`, made when the first one came), then
 * `#text`, then the attributes; a string when it has neither children nor attributes ("" when empty).
 */
function elementValue(node: XmlTree | undefined, text: string, attributes: XmlTree | undefined): unknown {
  if (node === undefined && attributes === undefined) return text;
  const value = node ?? {};
  if (text.length > 0) value["#text"] = text;
  if (attributes !== undefined) for (const key in attributes) value[key] = attributes[key];
  return value;
}

interface Attributes {
  readonly attributes: XmlTree | undefined;
  /** Index just past the tag's `>` (or the declaration's `?>`). */
  readonly end: number;
  readonly selfClosing: boolean;
}

/**
 * The attributes from `i` to the end of the tag: `name="value"` pairs (either quote), separated by whitespace.
 * Names lose their prefix (`xsi:schemaLocation` → `@schemaLocation`), `xmlns` and `xmlns:*` are dropped, values
 * are trimmed and kept as written. Undefined for anything else.
 */
function readAttributes(s: string, i: number, declaration: boolean, names: Names): Attributes | undefined {
  let attributes: XmlTree | undefined;
  const length = s.length;
  for (;;) {
    let spaced = false;
    while (i < length && isXmlSpace(s.charCodeAt(i))) {
      i++;
      spaced = true;
    }
    const code = s.charCodeAt(i);
    if (declaration) {
      if (code === QUESTION && s.charCodeAt(i + 1) === GT) return { attributes, end: i + 2, selfClosing: false };
    } else if (code === GT) {
      return { attributes, end: i + 1, selfClosing: false };
    } else if (code === SLASH && s.charCodeAt(i + 1) === GT) {
      return { attributes, end: i + 2, selfClosing: true };
    }
    if (!spaced) return undefined;
    const nameStart = i;
    let hash = 0;
    for (let c = s.charCodeAt(i); isNameChar(c); c = s.charCodeAt(++i)) hash = (Math.imul(hash, 31) + c) | 0;
    if (i === nameStart) return undefined;
    const key = names.at(s, nameStart, i, hash).attributeKey;
    while (i < length && isXmlSpace(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) !== EQUALS) return undefined;
    i++;
    while (i < length && isXmlSpace(s.charCodeAt(i))) i++;
    const quote = s.charCodeAt(i);
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return undefined;
    const close = s.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", i + 1);
    if (close === -1) return undefined;
    const value = s.slice(i + 1, close);
    // The declaration ends at the first `?>` for XMLValidator, wherever the quotes are: kept out of values.
    if (declaration && (value.includes("?") || value.includes(">"))) return undefined;
    i = close + 1;
    if (key === null) continue;
    if (attributes === undefined) attributes = {};
    // `a:x` and `b:x` on one tag both become `@x`: the last value in the first one's place, as in XMLParser.
    attributes[key] = value.trim();
  }
}

/** A name as written, and what it becomes as an element and as an attribute; kept once per distinct name. */
interface Name {
  readonly raw: string;
  /** After the first colon; undefined for a name XMLParser refuses or renames as an element. */
  readonly local: string | undefined;
  /** `@` and the name after its only colon; null for xmlns, xmlns:* and an empty local name (XMLParser drops them). */
  readonly attributeKey: string | null;
}

function nameOf(raw: string): Name {
  const colon = raw.indexOf(":");
  const local = colon === -1 ? raw : raw.slice(colon + 1);
  const parts = raw.split(":");
  const attributeName = parts.length === 2 ? (parts[1] as string) : raw;
  return {
    raw,
    local: local === "" || RESERVED.has(local) ? undefined : local,
    attributeKey: parts[0] === "xmlns" || attributeName === "" ? null : `@${attributeName}`,
  };
}

/** Whether `s` holds `text` at `start` (compared in place: cheaper than startsWith for a short name). */
function holds(s: string, start: number, text: string): boolean {
  const length = text.length;
  for (let k = 0; k < length; k++) if (s.charCodeAt(start + k) !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * The names of a file met so far, by a hash computed while the name is scanned; a name is checked in place and
 * cut out of the text only the first time (a file repeats a few dozen names a hundred thousand times).
 */
class Names {
  private readonly byHash = new Map<number, Name>();

  at(s: string, start: number, end: number, hash: number): Name {
    const known = this.byHash.get(hash);
    if (known !== undefined && known.raw.length === end - start && holds(s, start, known.raw)) return known;
    const name = nameOf(s.slice(start, end));
    if (known === undefined) this.byHash.set(hash, name);
    return name;
  }
}

/**
 * The tree of `xml` (already accepted by XMLValidator), or undefined when it has a shape only XMLParser should
 * read. `isArray` names the elements always read as lists.
 */
export function readXmlTree(xml: string, isArray: (name: string) => boolean): XmlTree | undefined {
  // XMLParser reads every CR LF and lone CR as LF first (text and attribute values keep the LF).
  const s = xml.includes("\r") ? xml.replace(/\r\n?/g, "\n") : xml;
  const length = s.length;
  const names = new Names();
  const top: XmlTree = {};
  // The open elements, innermost last: name, child elements so far (made on the first), text pieces so far
  // (trimmed, joined without a separator as XMLParser joins them), attributes.
  const openNames: Name[] = [];
  const openLocals: string[] = [];
  const openNodes: Array<XmlTree | undefined> = [];
  const openTexts: string[] = [];
  const openAttributes: Array<XmlTree | undefined> = [];
  let depth = 0;
  let roots = 0;
  // The text read since the last tag: XMLParser adds the text on both sides of a comment together and trims
  // the whole, so the piece is kept until a tag, a CDATA section or the end of the element.
  let pending = "";
  let i = 0;
  const addToParent = (name: string, value: unknown): void => {
    if (depth === 0) {
      addChild(top, name, value, isArray);
      return;
    }
    let parent = openNodes[depth - 1];
    if (parent === undefined) {
      parent = {};
      openNodes[depth - 1] = parent;
    }
    addChild(parent, name, value, isArray);
  };
  if (s.startsWith("<?xml") && isXmlSpace(s.charCodeAt(5))) {
    const declaration = readAttributes(s, 5, true, names);
    if (declaration === undefined) return undefined;
    top["?xml"] = declaration.attributes ?? "";
    i = declaration.end;
  }
  while (i < length) {
    const lt = s.indexOf("<", i);
    const textEnd = lt === -1 ? length : lt;
    if (depth > 0 && textEnd > i) {
      if (pending !== "") pending += s.slice(i, textEnd);
      else {
        // Whitespace between elements (most of a pretty-printed file) is trimmed away: not copied.
        let j = i;
        while (j < textEnd && isXmlSpace(s.charCodeAt(j))) j++;
        if (j < textEnd) pending = s.slice(j, textEnd);
      }
    }
    if (lt === -1) break;
    const next = s.charCodeAt(lt + 1);
    if (next === BANG) {
      if (s.startsWith("<!--", lt)) {
        const close = s.indexOf("-->", lt + 4);
        if (close === -1) return undefined;
        i = close + 3;
        continue;
      }
      if (s.startsWith("<![CDATA[", lt) && depth > 0) {
        const close = s.indexOf("]]>", lt + 9);
        if (close === -1) return undefined;
        // CDATA is kept as written, untrimmed, as one more piece of the element's text.
        openTexts[depth - 1] += pending.trim() + s.slice(lt + 9, close);
        pending = "";
        i = close + 3;
        continue;
      }
      return undefined;
    }
    if (next === QUESTION) return undefined;
    if (next === SLASH) {
      if (depth === 0) return undefined;
      const raw = (openNames[depth - 1] as Name).raw;
      // XMLValidator has matched every closing tag with its opening tag; the length and the ends are checked
      // again (cheaply) so that a disagreement sends the file to XMLParser instead of building a wrong tree.
      const end = lt + 2 + raw.length;
      if (s.charCodeAt(lt + 2) !== raw.charCodeAt(0) || s.charCodeAt(end - 1) !== raw.charCodeAt(raw.length - 1))
        return undefined;
      let close = end;
      while (close < length && isXmlSpace(s.charCodeAt(close))) close++;
      if (s.charCodeAt(close) !== GT) return undefined;
      depth--;
      const text = pending === "" ? (openTexts[depth] as string) : openTexts[depth] + pending.trim();
      pending = "";
      const value = elementValue(openNodes[depth], text, openAttributes[depth]);
      addToParent(openLocals[depth] as string, value);
      i = close + 1;
      continue;
    }
    // An opening tag.
    let j = lt + 1;
    let hash = 0;
    for (let c = s.charCodeAt(j); isNameChar(c); c = s.charCodeAt(++j)) hash = (Math.imul(hash, 31) + c) | 0;
    if (j === lt + 1) return undefined;
    const name = names.at(s, lt + 1, j, hash);
    const local = name.local;
    if (local === undefined) return undefined;
    let attributes: XmlTree | undefined;
    let selfClosing: boolean;
    const code = s.charCodeAt(j);
    if (code === GT) {
      selfClosing = false;
      i = j + 1;
    } else if (code === SLASH && s.charCodeAt(j + 1) === GT) {
      selfClosing = true;
      i = j + 2;
    } else {
      const read = readAttributes(s, j, false, names);
      if (read === undefined) return undefined;
      attributes = read.attributes;
      selfClosing = read.selfClosing;
      i = read.end;
    }
    if (depth === 0) {
      roots++;
      if (roots > 1) return undefined;
    } else if (pending !== "") {
      openTexts[depth - 1] += pending.trim();
    }
    // Text outside the root element is never kept (only whitespace and comments are there in a valid file).
    pending = "";
    if (selfClosing) {
      addToParent(local, attributes === undefined ? "" : elementValue(undefined, "", attributes));
      continue;
    }
    if (depth >= MAX_DEPTH) return undefined;
    openNames[depth] = name;
    openLocals[depth] = local;
    openNodes[depth] = undefined;
    openTexts[depth] = "";
    openAttributes[depth] = attributes;
    depth++;
  }
  if (depth > 0 || roots !== 1) return undefined;
  return top;
}
