/**
 * The graph in Graphviz DOT, for `dot -Tsvg` and for {@link svgPicture}.
 *
 * Every id and label is a quoted DOT string with `\` and `"` escaped, so no agent name can
 * break the file. Node ids are readable: the agent id, `agent/terminal` for end nodes and
 * `/start` for the start marker (ids hold no `/`, so these never collide). Shapes: supervisor
 * box with a double border, worker rounded box, peer ellipse, terminal an exit arrow (`cds`, compact
 * where a circle would grow with its label); observe
 * edges dashed; faults from {@link buildPicture} coloured.
 */
import { replaceUnprintable } from "../core/printable.js";
import type { CheckedGraph } from "../analysis/model.js";
import { buildPicture, FAULT_COLOR, UNREACHABLE_COLOR, type NodeState, type PictureEdge, type PictureNode } from "./picture-model.js";

/** Returns the DOT source of `graph` (one `digraph`), ending in a newline. */
export function dotPicture(graph: CheckedGraph): string {
  const picture = buildPicture(graph);
  const lines = [
    `digraph ${quote(graph.name)} {`,
    `  graph [label=${quote(picture.title)}, labelloc=t, fontname="Helvetica", rankdir=TB, pad=0.2];`,
    `  node [fontname="Helvetica", fontsize=11];`,
    `  edge [fontname="Helvetica", fontsize=9];`,
  ];
  for (const node of picture.nodes) lines.push(`  ${quote(node.key)} [${attributes(nodeAttributes(node))}];`);
  for (const edge of picture.edges) {
    const attrs = edgeAttributes(edge);
    lines.push(`  ${quote(edge.from)} -> ${quote(edge.to)}${attrs.length === 0 ? "" : ` [${attributes(attrs)}]`};`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

/** A DOT attribute; the value is already escaped and is written inside double quotes. */
type Attribute = readonly [name: string, value: string];

function nodeAttributes(node: PictureNode): Attribute[] {
  const label: Attribute = ["label", labelValue(node.label)];
  switch (node.kind) {
    case "start":
      return [label, ["shape", "circle"], ["style", "filled"], ["fillcolor", "black"], ["fontcolor", "white"], ["fontsize", "9"]];
    case "terminal":
      return [label, ["shape", "cds"], ["fontsize", "9"], ["margin", "0.12,0.04"], ...stateAttributes(node.state, [])];
    case "agent": {
      const byRole: Record<typeof node.role, { attrs: Attribute[]; styles: string[] }> = {
        supervisor: { attrs: [["shape", "box"], ["peripheries", "2"]], styles: [] },
        worker: { attrs: [["shape", "box"]], styles: ["rounded"] },
        peer: { attrs: [["shape", "ellipse"]], styles: [] },
      };
      // An approval gate is its own shape, whatever its role.
      const { attrs, styles } = node.gate ? { attrs: [["shape", "hexagon"]] as Attribute[], styles: [] } : byRole[node.role];
      return [label, ...attrs, ...stateAttributes(node.state, styles)];
    }
  }
}

/** Colour and the one `style` attribute (the shape's own styles plus a dashed outline when unreachable). */
function stateAttributes(state: NodeState, styles: readonly string[]): Attribute[] {
  const style = (extra: readonly string[]): Attribute[] => {
    const all = [...styles, ...extra];
    return all.length === 0 ? [] : [["style", all.join(",")]];
  };
  if (state === "no-terminal-path") return [...style([]), ["color", FAULT_COLOR], ["fontcolor", FAULT_COLOR], ["penwidth", "2.5"]];
  if (state === "unreachable") return [...style(["dashed"]), ["color", UNREACHABLE_COLOR], ["fontcolor", UNREACHABLE_COLOR]];
  return style([]);
}

function edgeAttributes(edge: PictureEdge): Attribute[] {
  const attrs: Attribute[] = [];
  // A space each side keeps the labels of two opposite edges (a -> b, b -> a) from touching.
  if (edge.label.length > 0) attrs.push(["label", labelValue(edge.label.map((line) => ` ${line} `))]);
  if (edge.dashed) attrs.push(["style", "dashed"]);
  if (edge.fault) attrs.push(["color", FAULT_COLOR], ["fontcolor", FAULT_COLOR], ["penwidth", "2.5"]);
  else if (edge.unreachable) attrs.push(["color", UNREACHABLE_COLOR], ["fontcolor", UNREACHABLE_COLOR]);
  return attrs;
}

function attributes(attrs: readonly Attribute[]): string {
  return attrs.map(([name, value]) => `${name}="${value}"`).join(", ");
}

/** A multi-line label: each line escaped, joined with DOT's centred line break `\n`. */
function labelValue(lines: readonly string[]): string {
  return lines.map(escapeDot).join("\\n");
}

function quote(text: string): string {
  return `"${escapeDot(text)}"`;
}

/**
 * Escapes text for a DOT quoted string: backslash (else `\l`, `\N` and friends would be read as
 * label escapes) and double quote; a line break in the text becomes DOT's `\n`; control
 * characters and lone surrogates become U+FFFD.
 */
export function escapeDot(text: string): string {
  return replaceUnprintable(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n");
}
