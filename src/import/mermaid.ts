/**
 * Mermaid flowcharts (`flowchart` or `graph`, any direction): nodes with any of Mermaid's
 * shapes and quoted or bare labels, links `-->`, `---`, `-.->`, `==>` with `|label|` or
 * `-- label -->` text, chains (`a --> b --> c`) and `&` groups, `%%` comments; `subgraph`,
 * `end`, `direction`, `classDef`, `class`, `style`, `linkStyle` and `click` lines are skipped.
 * Edges point from left to right; a link without an arrow head counts as one.
 *
 * A picture written by `seam graph --format mermaid` is read back as far as it shows the graph:
 * its title names the graph, the `start` circle's links are the entries, agent labels give id,
 * role and version, flag-shaped end nodes are terminals and link labels give the kind,
 * `max_rounds` and `observe`. What the picture does not show ({@link PICTURE_LEAVES_OUT}) is
 * noted as left out.
 * In any other flowchart a node is an agent named by its id, a circle labelled `start` marks the
 * entries (else every node no link enters, a guess), a circle labelled `end` or `stop` marks
 * ends (else every node no link leaves ends, a guess), and a link label is a branch name.
 */
import { EDGE_KINDS, OUTCOMES, ROLES, type EdgeKind, type Outcome, type Role } from "../core/vocabulary.js";
import { createSourceFile, getLineAndColumn, type SourceFile } from "../core/source-file.js";
import { parse } from "../parser/parse.js";
import { isSeamName } from "./names.js";
import { MAX_IMPORTED_EDGES, type ImportedEdge, type ImportedEnd, type ImportedGraph, type ImportResult } from "./model.js";

/** Shapes, longest opener first: [open, close, name]. */
const SHAPES: readonly (readonly [string, string, string])[] = [
  ["(((", ")))", "circle"],
  ["([", "])", "stadium"],
  ["[[", "]]", "subroutine"],
  ["[(", ")]", "cylinder"],
  ["((", "))", "circle"],
  ["{{", "}}", "hexagon"],
  ["[/", "/]", "box"],
  ["[\\", "\\]", "box"],
  ["[/", "\\]", "trapezoid"],
  ["[\\", "/]", "inverted-trapezoid"],
  [">", "]", "flag"],
  ["[", "]", "box"],
  ["(", ")", "round"],
  ["{", "}", "rhombus"],
];
const SKIP = /^(?:subgraph|end|direction|classDef|class|style|linkStyle|click|accTitle|accDescr)\b/;
/** `-- text -->`, `== text ==>`, `-. text .->`: a link with its text inside. */
const TEXT_LINK = /^\s*<?(--|==|-\.)\s+([^\s>|-][^>|]*?)\s+(?:-{2,}|={2,}|\.-+)(?:>|o|x)?/;
/** `-->`, `---`, `==>`, `-.->`, optionally followed by `|text|`. */
const LINK = /^\s*<?(-{2,}|={2,}|-\.+-)(?:>|o|x)?(?:\|([^|]*)\|)?/;
const ID = /^[\p{L}\p{N}_]+(?:[-.][\p{L}\p{N}_]+)*/u;

interface Node {
  readonly id: string;
  shape?: string;
  label?: string;
  readonly line: number;
}

interface Link {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
  readonly dotted: boolean;
  /** The 1-based line the link is written on. */
  readonly line: number;
}

/** Reads a Mermaid flowchart. */
export function importMermaid(file: SourceFile, fallbackName: string): ImportResult {
  const nodes = new Map<string, Node>();
  const links: Link[] = [];
  let title: string | undefined;
  let header = false;
  const text = file.text.replace(/^\ufeff/, "");
  const skip = file.text.length - text.length;
  const lines = text.split(/\r\n|\r|\n/);
  let offset = skip;
  let inFront = false;
  for (let l = 0; l < lines.length; l++) {
    const raw = lines[l] as string;
    const lineStart = offset;
    offset += raw.length + 1;
    const line = raw.replace(/%%.*$/, "").trim();
    if (l === 0 && line === "---") {
      inFront = true;
      continue;
    }
    if (inFront) {
      if (line === "---") inFront = false;
      else {
        const match = /^title:\s*(.*)$/.exec(line);
        if (match !== null) title = unquoteTitle(match[1] as string);
      }
      continue;
    }
    if (line === "") continue;
    if (!header) {
      if (!/^(?:flowchart|graph)(?:\s+(?:TB|TD|BT|RL|LR))?\s*;?$/.test(line)) {
        return problem(file, lineStart + (raw.length - raw.trimStart().length), "is not a Mermaid flowchart: the first line should be 'flowchart TD' (or graph, with a direction)");
      }
      header = true;
      continue;
    }
    for (const statement of line.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
      const s = statement.trim();
      if (s === "" || SKIP.test(s)) continue;
      const error = readStatement(s, l + 1, nodes, links);
      if (error !== undefined) {
        const at = raw.indexOf(s.slice(error.at).slice(0, 10));
        return problem(file, lineStart + Math.max(0, at), error.message);
      }
    }
  }
  if (!header) return problem(file, file.text.length, "is not a Mermaid flowchart: it has no 'flowchart' line");
  if (nodes.size === 0) return problem(file, file.text.length, "has no nodes");
  if (!isSeamPicture(nodes)) return { ok: true, graph: fromFlowchart(nodes, links, title, fallbackName) };
  const picture = fromSeamPicture(nodes, links, title, fallbackName);
  if ("problem" in picture) {
    const lineStart = lines.slice(0, picture.line - 1).reduce((sum, l) => sum + l.length + 1, skip);
    return problem(file, lineStart, picture.problem);
  }
  return { ok: true, graph: picture };
}

function problem(file: SourceFile, offset: number, message: string): ImportResult {
  const { line, column } = getLineAndColumn(file, offset);
  return { ok: false, problem: { message, line, column, hint: "give a Mermaid flowchart (see docs/import.md)" } };
}

/** Reads `a --> b & c -->|x| d`; returns where and why it fails. */
function readStatement(s: string, line: number, nodes: Map<string, Node>, links: Link[]): { at: number; message: string } | undefined {
  let rest = s;
  let previous: string[] | undefined;
  let pending: { label?: string; dotted: boolean } | undefined;
  for (;;) {
    const group: string[] = [];
    for (;;) {
      const read = readNode(rest, line, nodes);
      if (typeof read === "string") return { at: s.length - rest.length, message: read };
      group.push(read.id);
      rest = read.rest.trimStart();
      if (!rest.startsWith("&")) break;
      rest = rest.slice(1).trimStart();
    }
    if (previous !== undefined && pending !== undefined) {
      if (links.length + previous.length * group.length > MAX_IMPORTED_EDGES) {
        return { at: 0, message: `these & groups make the flowchart's links number more than ${MAX_IMPORTED_EDGES}, more than a .seam file can hold` };
      }
      for (const from of previous) for (const to of group) links.push({ from, to, ...(pending.label === undefined ? {} : { label: pending.label }), dotted: pending.dotted, line });
    }
    if (rest === "") return undefined;
    const text = TEXT_LINK.exec(rest);
    const link = text ?? LINK.exec(rest);
    if (link === null) return { at: s.length - rest.length, message: `cannot read ${JSON.stringify(rest.slice(0, 40))}: expected a link such as -->` };
    const label = link[2];
    const dotted = (link[1] ?? "").includes(".");
    pending = { ...(label === undefined ? {} : { label: unquote(label.trim()) }), dotted };
    previous = group;
    rest = rest.slice(link[0].length).trimStart();
    if (rest === "") return { at: s.length, message: "a link has no target" };
  }
}

function readNode(s: string, line: number, nodes: Map<string, Node>): { id: string; rest: string } | string {
  const match = ID.exec(s);
  if (match === null) return `expected a node id, not ${JSON.stringify(s.slice(0, 20))}`;
  const id = match[0];
  let rest = s.slice(id.length);
  const node = nodes.get(id) ?? { id, line };
  nodes.set(id, node);
  let unclosed: string | undefined;
  for (const [open, close, shape] of SHAPES) {
    if (!rest.startsWith(open)) continue;
    const body = rest.slice(open.length);
    const quoted = body.startsWith('"');
    const end = quoted ? body.indexOf(`"${close}`, 1) : body.indexOf(close);
    // `[/` and `[\` each open two shapes: try the other closer before giving up.
    if (end < 0) {
      unclosed ??= `the shape ${open}...${close} of node ${id} is not closed`;
      continue;
    }
    unclosed = undefined;
    node.shape = shape;
    node.label = quoted ? unquote(body.slice(0, end + 1)) : body.slice(0, end).trim();
    rest = body.slice(end + (quoted ? 1 : 0) + close.length);
    break;
  }
  if (unclosed !== undefined) return unclosed;
  return { id, rest };
}

/** A label without quotes, Mermaid's entity codes (`#quot;`, `#35;`) and `<br/>` decoded. */
function unquote(label: string): string {
  const inner = label.startsWith('"') && label.endsWith('"') && label.length >= 2 ? label.slice(1, -1) : label;
  return inner
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/#(quot|amp|lt|gt|\d+);/g, (_, code: string) =>
      code === "quot" ? '"' : code === "amp" ? "&" : code === "lt" ? "<" : code === "gt" ? ">" : String.fromCodePoint(Number(code)),
    );
}

function unquoteTitle(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "string") return value;
  } catch {
    // Not JSON: a bare YAML scalar.
  }
  return raw.replace(/^'(.*)'$/, "$1");
}

/** A picture of `seam graph`: every box is a `[[`, `(` or `([` node whose second label line starts with a role. */
function isSeamPicture(nodes: ReadonlyMap<string, Node>): boolean {
  let agents = 0;
  for (const node of nodes.values()) {
    const lines = (node.label ?? "").split("\n");
    if (node.shape === "circle" && node.label === "start") continue;
    if (node.shape === "flag" && lines.length === 2 && (OUTCOMES as readonly string[]).includes(lines[0] as string)) continue;
    if (node.shape === "trapezoid" && (lines[0] ?? "").startsWith("fan_out ")) continue;
    if (!["subroutine", "round", "stadium", "hexagon", "inverted-trapezoid"].includes(node.shape ?? "")) return false;
    if (!(ROLES as readonly string[]).includes((lines[1] ?? "").split(" ")[0] as string)) return false;
    agents++;
  }
  return agents > 0;
}

/** Whether a guard and a floor read from a picture parse as Seam (they go into the file as written). */
function edgeLabelParses(guard: string | undefined, floor: string | undefined): boolean {
  if (guard === undefined && floor === undefined) return true;
  return fragmentParses(`${guard ?? ""}${floor ?? ""}`, `  agent a: peer\n  transfer a -> b ${guard ?? ""} {\n    ${floor === undefined ? "" : `min_confidence ${floor}`}\n  }\n`);
}

/** Whether a join read from a picture parses as Seam's `join` line (it goes into the file as written). */
function joinParses(join: string): boolean {
  return fragmentParses(join, `  agent a: peer {\n    join ${join}\n  }\n`);
}

/**
 * Whether `items` parse as the body of a graph with agents `a` and `b`, where `text` is the part
 * read from the picture: one that could end or open a block, or start a comment, never does,
 * so a label cannot add agents or edges of its own.
 */
function fragmentParses(text: string, items: string): boolean {
  if (/[\r\n{}]|\/\/|\/\*/.test(text)) return false;
  return parse(createSourceFile("<label>", `graph g {\n  entry a\n  agent b: peer\n${items}}\n`)).diagnostics.length === 0;
}

/** A picture of `seam graph` as a graph, or why it cannot be read and the line where. */
function fromSeamPicture(
  nodes: ReadonlyMap<string, Node>,
  links: readonly Link[],
  title: string | undefined,
  fallback: string,
): ImportedGraph | { readonly problem: string; readonly line: number } {
  const name = (title === undefined ? fallback : (title.split(":")[0] ?? fallback)).trim() || fallback;
  const hop = title === undefined ? undefined : /hop limit (\d+) \(declared/.exec(title);
  const agentOf = new Map<string, { id: string; role: Role; version?: string; gate?: boolean; effect?: string; ends: ImportedEnd[] }>();
  const terminals = new Map<string, ImportedEnd>();
  // A fan-out is its own node: the supervisor links to it, and it links to each branch.
  const fanOuts = new Map<string, { name: string; owner?: string }>();
  for (const node of nodes.values()) {
    const lines = (node.label ?? "").split("\n");
    if (node.shape === "flag") terminals.set(node.id, { name: lines[1] as string, outcome: lines[0] as Outcome });
    else if (node.shape === "trapezoid") {
      const fanOut = (lines[0] as string).slice("fan_out ".length);
      if (!isSeamName(fanOut)) return { problem: `the fan-out ${node.id} is named ${JSON.stringify(fanOut.slice(0, 80))}, which is not a Seam name`, line: node.line };
      fanOuts.set(node.id, { name: fanOut });
    }
    else if (node.shape !== "circle") {
      const [role, ...version] = (lines[1] as string).split(" ");
      const effect = lines.find((line, i) => i >= 2 && line.startsWith("effect: "))?.slice("effect: ".length);
      const join = lines.find((line, i) => i >= 2 && line.startsWith("join "))?.slice("join ".length);
      if (join !== undefined && !joinParses(join)) return { problem: `the label of ${node.id} has a join Seam cannot read: ${JSON.stringify(join.slice(0, 80))}`, line: node.line };
      agentOf.set(node.id, {
        id: lines[0] as string,
        role: role as Role,
        ...(version.length === 0 ? {} : { version: version.join(" ") }),
        ...(lines.slice(2).includes("approval gate") ? { gate: true } : {}),
        ...(effect === undefined ? {} : { effect }),
        ...(join === undefined ? {} : { join }),
        ends: [],
      });
    }
  }
  for (const link of links) {
    const fan = fanOuts.get(link.to);
    if (fan !== undefined && agentOf.has(link.from)) fan.owner = link.from;
  }
  const entries: string[] = [];
  const edges: ImportedEdge[] = [];
  for (const link of links) {
    if (fanOuts.has(link.to)) continue;
    const fan = fanOuts.get(link.from);
    if (fan !== undefined && fan.owner === undefined) return { problem: `the fan-out ${link.from} has no supervisor linking to it`, line: link.line };
    const from = agentOf.get(fan?.owner ?? link.from);
    const to = agentOf.get(link.to);
    const end = terminals.get(link.to);
    if (from === undefined && to !== undefined) entries.push(to.id);
    else if (from !== undefined && end !== undefined) from.ends.push(end);
    else if (from !== undefined && to !== undefined) {
      const parts = (link.label ?? "").split("\n");
      const kind = (EDGE_KINDS as readonly string[]).includes(parts[0] as string) ? (parts[0] as EdgeKind) : undefined;
      const rounds = parts.map((p) => /^max_rounds (\d+)$/.exec(p)).find((m) => m !== null);
      const guard = parts.find((p) => p === "otherwise" || p.startsWith("when "));
      const floor = parts.find((p) => p.startsWith("min_confidence "))?.slice("min_confidence ".length);
      if (!edgeLabelParses(guard, floor)) {
        return { problem: `the edge label ${JSON.stringify((link.label ?? "").slice(0, 80))} of ${link.from} --> ${link.to} has a guard or min_confidence Seam cannot read`, line: link.line };
      }
      edges.push({
        from: from.id,
        to: to.id,
        ...(kind === undefined ? {} : { kind }),
        ...(rounds === undefined || rounds === null ? {} : { maxRounds: Number(rounds[1]) }),
        ...(parts.includes("observe") ? { observe: true } : {}),
        ...(guard === undefined ? {} : { guard }),
        ...(floor === undefined ? {} : { minConfidence: floor }),
        ...(parts.includes("gate") ? { gate: true } : {}),
        ...(fan === undefined ? {} : { fanOutName: fan.name }),
      });
    }
  }
  return {
    source: "a seam graph picture",
    name,
    nodes: [...agentOf.values()],
    edges,
    entries,
    ...(hop === undefined || hop === null ? {} : { hopLimit: Number(hop[1]) }),
    boundsStated: true,
    notes: [PICTURE_LEAVES_OUT],
  };
}

/**
 * What a `seam graph` picture does not draw, so an import of one cannot read it back: said once
 * in every import of a picture (on stderr and at the top of the file), since the picture cannot
 * tell whether the graph it was drawn from had any.
 */
export const PICTURE_LEAVES_OUT =
  "what a seam graph picture does not show: the envelope version, on_hop_limit, loop_signature, contracts, the fields each edge requires, terminal descriptions and comments " +
  "(the file has Seam's defaults for them; copy them from the .seam file the picture was drawn from)";

function fromFlowchart(nodes: ReadonlyMap<string, Node>, links: readonly Link[], title: string | undefined, fallback: string): ImportedGraph {
  const marker = (node: Node, words: readonly string[]): boolean => node.shape === "circle" && words.includes((node.label ?? node.id).trim().toLowerCase());
  const starts = new Set([...nodes.values()].filter((n) => marker(n, ["start"])).map((n) => n.id));
  const stops = new Set([...nodes.values()].filter((n) => marker(n, ["end", "stop"])).map((n) => n.id));
  const agents = [...nodes.values()].filter((n) => !starts.has(n.id) && !stops.has(n.id));
  const ends = new Map<string, ImportedEnd[]>(agents.map((n) => [n.id, []]));
  const entries: string[] = [];
  const edges: ImportedEdge[] = [];
  const entered = new Set<string>();
  const left = new Set<string>();
  for (const link of links) {
    if (starts.has(link.from)) {
      if (ends.has(link.to) && !entries.includes(link.to)) entries.push(link.to);
    } else if (stops.has(link.to)) {
      const list = ends.get(link.from);
      const endName = link.label ?? "done";
      if (list !== undefined && !list.some((e) => e.name === endName)) list.push({ name: endName });
    } else if (ends.has(link.from) && ends.has(link.to)) {
      edges.push({ from: link.from, to: link.to, ...(link.label === undefined ? {} : { conditional: { label: link.label } }) });
      entered.add(link.to);
      left.add(link.from);
    }
  }
  const guessEntries = starts.size === 0;
  const entryList = guessEntries ? agents.filter((n) => !entered.has(n.id)).map((n) => n.id) : entries;
  if (stops.size === 0) for (const n of agents) if (!left.has(n.id)) (ends.get(n.id) as ImportedEnd[]).push({ name: "done" });
  return {
    source: "Mermaid",
    name: title ?? fallback,
    nodes: agents.map((n) => ({ id: n.id, ends: ends.get(n.id) ?? [] })),
    edges,
    entries: entryList,
    ...(guessEntries ? { entryGuess: "the flowchart has no start circle: the nodes no link enters" } : {}),
    notes: [],
  };
}
