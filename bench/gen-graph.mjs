// Generates large, realistic `.seam` graphs for the scale bench (bench/scale.mjs) and the same
// graph as a plain edge list for the networkx peer (bench/networkx_peer.py).
//
// Shape, chosen to stress what a checker finds hard, not to flatter it:
// - a backbone chain agent 0 -> 1 -> ... -> n-1, so the graph is ~n deep (recursion depth,
//   longest-walk search);
// - about four edges per agent in all: local and long-range forward edges, plus back edges
//   that close cycles. Agents form teams of 256 (departments): back edges stay inside a team and
//   edges between teams only run forward, so each team is one strongly connected component and
//   the chain of teams is a DAG of about n/256 components;
// - roles used as docs/language.md allows: supervisors delegate (always with max_rounds) and
//   get returns from agents they delegated to (a target without a return has a terminal); workers and peers transfer to each other (back
//   transfers always bounded). Every cycle therefore holds a bounded edge, so `hop_limit auto`
//   is computable and the checker runs its whole pipeline, hop limits included;
// - terminals on about a tenth of the agents and always on the last one, so every agent can end
//   the task; a few `require` lines, a `contract` block, versions and comments.
// Deterministic: a fixed-seed PRNG, so every run and every machine sees the same graphs.

/** Mulberry32: a tiny, well-mixed 32-bit PRNG; returns floats in [0, 1). */
export function createRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PREFIX = { supervisor: "sup", worker: "wrk", peer: "peer" };
const OUTCOMES = ["complete", "complete", "failed", "escalate"];
const REQUIRES = ["goal.out_of_scope", "decisions[].evidence", "artefacts[].digest", "open_questions"];

/** Default seed: fixed so that results compare across runs. */
export const DEFAULT_SEED = 0x5ea1;

/** Agents per team; a multiple of 8 so every team holds the same mix of roles. */
export const TEAM_SIZE = 256;

// Team boundaries sit at i % 256 === 4, between two non-supervisors, so the backbone can cross
// them with a forward transfer (a worker can only reach a supervisor by a return, whose
// delegate would run backwards across the boundary).
const teamOf = (i) => (i < TEAM_SIZE + 4 ? 0 : Math.floor((i - 4) / TEAM_SIZE));
const teamStart = (team) => (team === 0 ? 0 : team * TEAM_SIZE + 4);

/**
 * Builds a graph of `agents` agents.
 * @param {{ agents: number, seed?: number, extraPerAgent?: number }} options
 *   `extraPerAgent`: random out-edge attempts per agent beyond the backbone (default 3; with the
 *   delegate/return pairs this gives about four edges per agent).
 * @returns {{ name: string, agents: {id: string, role: string, terminal?: string}[],
 *   edges: {kind: string, from: number, to: number, maxRounds?: number, require?: string}[],
 *   entries: number[] }}
 */
export function generateGraph({ agents: n, seed = DEFAULT_SEED, extraPerAgent = 3 }) {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`agents must be an integer >= 2, got ${n}`);
  const random = createRandom(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)); // inclusive

  // Roles: every 8th agent supervises; its chain neighbours are workers (a supervisor may not
  // hand to or take from a peer); the rest are 70% workers, 30% peers.
  const roles = new Array(n);
  for (let i = 0; i < n; i++) roles[i] = i % 8 === 0 ? "supervisor" : undefined;
  for (let i = 0; i < n; i++) {
    if (roles[i]) continue;
    const nearSupervisor = roles[i - 1] === "supervisor" || (i + 1 < n && (i + 1) % 8 === 0);
    roles[i] = nearSupervisor || random() < 0.7 ? "worker" : "peer";
  }
  const agents = roles.map((role, i) => ({ id: `${PREFIX[role]}-${i}`, role }));
  for (let i = 0; i < n; i++) if (i === n - 1 || random() < 0.1) agents[i].terminal = OUTCOMES[int(0, 3)];

  const edges = [];
  const keys = new Set();
  const add = (kind, from, to, maxRounds) => {
    const key = `${kind} ${from} ${to}`;
    if (from === to || keys.has(key)) return false;
    keys.add(key);
    const edge = { kind, from, to };
    if (maxRounds !== undefined) edge.maxRounds = maxRounds;
    if (random() < 0.05) edge.require = REQUIRES[int(0, REQUIRES.length - 1)];
    edges.push(edge);
    return true;
  };

  // Connects a -> b with the kind their roles allow; false when no kind fits. Between teams
  // (b is in a later team) no edge may run backwards, so no return comes back.
  const connect = (a, b) => {
    const ra = roles[a];
    const rb = roles[b];
    const crossTeam = teamOf(a) !== teamOf(b);
    if (ra === "supervisor") {
      if (rb === "peer") return false;
      // Supervisor-to-supervisor delegation only runs forward: two supervisors delegating to
      // each other would make a cycle of returns alone, with no edge to bound it.
      if (rb === "supervisor" && b < a) return false;
      // A delegate's target must return or end the task (missing-return); no return may
      // cross teams, so a delegate to another team needs a target with a terminal.
      if (crossTeam && !agents[b].terminal) return false;
      const added = add("delegate", a, b, int(1, 3));
      if (added && !crossTeam && !(agents[b].terminal && random() < 0.5)) add("return", b, a);
      return added;
    }
    if (rb === "supervisor") {
      if (ra === "peer" || crossTeam) return false;
      // A return needs the supervisor to have delegated to this agent first.
      add("delegate", b, a, int(1, 3));
      return add("return", a, b);
    }
    const bounded = b < a || random() < 0.15;
    return add("transfer", a, b, bounded ? int(1, 4) : undefined);
  };

  for (let i = 0; i + 1 < n; i++) {
    if (!connect(i, i + 1)) throw new Error(`backbone edge ${i} -> ${i + 1} has no valid kind`);
  }
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < extraPerAgent; k++) {
      const r = random();
      const start = teamStart(teamOf(i));
      let j;
      if (r < 0.5) j = i + int(2, 32); // local forward
      else if (r < 0.65) j = int(i + 1, n - 1); // long-range forward
      else if (r < 0.85) j = i - int(1, 64); // local back
      else j = int(start, i); // anywhere back in the team
      if (j >= start && j < n && j !== i) connect(i, j);
    }
  }
  const entries = n > 16 ? [0, 8 * Math.floor(n / 16)] : [0];
  return { name: `generated_${n}`, agents, edges, entries };
}

/** Renders a generated graph as `.seam` source text. */
export function toSeam(graph) {
  const { agents, edges, entries } = graph;
  const out = [
    `// Generated by bench/gen-graph.mjs: ${agents.length} agents, ${edges.length} edges.`,
    "seam 1",
    "",
    `graph ${graph.name} {`,
    "  envelope 1.3",
    `  entry ${entries.map((i) => agents[i].id).join(", ")}`,
    "  hop_limit auto",
    "  on_hop_limit escalate",
    "  loop_signature goal.statement, decisions[].statement",
    "",
    "  contract transfer {",
    "    require decisions, decisions[].rationale, provenance, artefacts, artefacts[].digest",
    "  }",
    "",
  ];
  agents.forEach((agent, i) => {
    const head = `  agent ${agent.id}: ${agent.role}`;
    const versioned = i % 5 === 0;
    if (!agent.terminal && !versioned) {
      out.push(head);
      return;
    }
    out.push(`${head} {`);
    if (versioned) out.push(`    version "${1 + (i % 3)}.${i % 10}.0"`);
    if (agent.terminal) out.push(`    terminal done_${i} ${agent.terminal} "task ends at ${agent.id}"`);
    out.push("  }");
  });
  out.push("");
  edges.forEach((edge, k) => {
    if (k % 500 === 0) out.push(`  // edges ${k}..${Math.min(k + 499, edges.length - 1)}`);
    const items = [];
    if (edge.maxRounds !== undefined) items.push(`max_rounds ${edge.maxRounds}`);
    if (edge.require) items.push(`require ${edge.require}`);
    const body = items.length ? ` { ${items.join(" ")} }` : "";
    out.push(`  ${edge.kind} ${agents[edge.from].id} -> ${agents[edge.to].id}${body}`);
  });
  out.push("}", "");
  return out.join("\n");
}

/**
 * Renders the graph as the plain edge list bench/networkx_peer.py reads: a header line
 * `n m`, a line of entry indices, then one `from to` pair of agent indices per line.
 */
export function toEdgeList(graph) {
  const lines = [`${graph.agents.length} ${graph.edges.length}`, graph.entries.join(" ")];
  for (const edge of graph.edges) lines.push(`${edge.from} ${edge.to}`);
  return lines.join("\n") + "\n";
}
