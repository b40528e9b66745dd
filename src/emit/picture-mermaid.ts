/**
 * The graph as a Mermaid flowchart (renders on GitHub, GitLab and in most Markdown tools).
 *
 * Mermaid gives meaning to some bare ids (`end` closes a subgraph; `o`/`x` right after `--`
 * turn an arrow into a circle or cross edge), so node ids are generated (`s0`, `a0`, `t0`...)
 * and the real names go into quoted labels with Mermaid's entity escapes (`#quot;`, `#35;`).
 * Shapes: supervisor `[[ ]]` (double-sided box), worker `( )` (rounded), peer `([ ])`
 * (stadium), terminal `>  ]` (a flag, pointing out like DOT's exit arrow); observe edges dashed (`-.->`); faults from
 * {@link buildPicture} coloured with `classDef`/`linkStyle`.
 */
import { replaceUnprintable } from "../core/printable.js";
import type { CheckedGraph } from "../analysis/model.js";
import { buildPicture, FAULT_COLOR, UNREACHABLE_COLOR, type PictureNode } from "./picture-model.js";

/** Returns the Mermaid source of `graph` (a YAML front-matter title, then `flowchart TD`), ending in a newline. */
export function mermaidPicture(graph: CheckedGraph): string {
  const picture = buildPicture(graph);
  const ids = new Map<string, string>();
  const counters = { start: 0, agent: 0, terminal: 0 };
  const prefix = { start: "s", agent: "a", terminal: "t" } as const;
  for (const node of picture.nodes) ids.set(node.key, `${prefix[node.kind]}${counters[node.kind]++}`);
  const id = (key: string): string => {
    const found = ids.get(key);
    if (found === undefined) throw new Error(`internal: picture edge names unknown node ${key}`);
    return found;
  };

  const lines = ["---", `title: ${JSON.stringify(picture.title)}`, "---", "flowchart TD"];
  for (const node of picture.nodes) lines.push(`  ${id(node.key)}${shape(node)}`);
  const faultLinks: number[] = [];
  const greyLinks: number[] = [];
  picture.edges.forEach((edge, index) => {
    const arrow = edge.dashed ? "-.->" : "-->";
    const label = edge.label.length === 0 ? "" : `|${quote(edge.label)}|`;
    lines.push(`  ${id(edge.from)} ${arrow}${label} ${id(edge.to)}`);
    if (edge.fault) faultLinks.push(index);
    else if (edge.unreachable) greyLinks.push(index);
  });

  const faulty = picture.nodes.filter((n) => n.kind !== "start" && n.state === "no-terminal-path").map((n) => id(n.key));
  const grey = picture.nodes.filter((n) => n.kind !== "start" && n.state === "unreachable").map((n) => id(n.key));
  if (faulty.length > 0) {
    lines.push(`  classDef fault stroke:${FAULT_COLOR},stroke-width:3px,color:${FAULT_COLOR}`, `  class ${faulty.join(",")} fault`);
  }
  if (grey.length > 0) {
    lines.push(
      `  classDef unreachable fill:#f5f5f5,stroke:${UNREACHABLE_COLOR},color:${UNREACHABLE_COLOR},stroke-dasharray:4 3`,
      `  class ${grey.join(",")} unreachable`,
    );
  }
  if (faultLinks.length > 0) lines.push(`  linkStyle ${faultLinks.join(",")} stroke:${FAULT_COLOR},stroke-width:3px,color:${FAULT_COLOR}`);
  if (greyLinks.length > 0) lines.push(`  linkStyle ${greyLinks.join(",")} stroke:${UNREACHABLE_COLOR},color:${UNREACHABLE_COLOR}`);
  return lines.join("\n") + "\n";
}

function shape(node: PictureNode): string {
  const text = quote(node.label);
  switch (node.kind) {
    case "start":
      return `((${text}))`;
    case "terminal":
      return `>${text}]`;
    case "agent":
      // An approval gate is its own shape, whatever its role.
      if (node.gate) return `{{${text}}}`;
      return node.role === "supervisor" ? `[[${text}]]` : node.role === "worker" ? `(${text})` : `([${text}])`;
  }
}

/** A quoted Mermaid label: lines joined by `<br/>`, each escaped with Mermaid entity codes. */
function quote(lines: readonly string[]): string {
  return `"${lines.map(escapeMermaid).join("<br/>")}"`;
}

/**
 * Escapes text for a quoted Mermaid label: `#` first (it starts an entity code), then the
 * characters that would end the string or be read as HTML; line breaks become spaces.
 */
export function escapeMermaid(text: string): string {
  return replaceUnprintable(text)
    .replace(/#/g, "#35;")
    .replace(/"/g, "#quot;")
    .replace(/&/g, "#amp;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\r\n|[\r\n\u2028\u2029]/g, " ");
}
