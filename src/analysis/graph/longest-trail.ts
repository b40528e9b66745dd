/**
 * The longest trail from one node under per-edge use limits, solved as an integer flow problem
 * with branch and bound.
 *
 * A walk that takes edge e exactly x_e times exists from s to u exactly when the multiset of
 * edges is an Eulerian trail from s to u: every node is balanced (out - in = [v = s] - [v = u])
 * and the used edges form one connected piece holding s (Euler's theorem for directed
 * multigraphs). Adding a sink T with an edge u -> T for every node the trail may end at, worth
 * that node's `gain`, and a forced edge T -> s turns the balance conditions into a circulation;
 * the best walk is then the circulation of greatest value (x_e <= cap_e) whose support is
 * connected. Without connectivity that is a min-cost circulation, whose optimum is integral and
 * found by cancelling negative cycles (Klein's algorithm). Connectivity is restored by branching
 * on a cut: where the optimum uses a piece W cut off from s, any connected solution either uses
 * some edge crossing W's boundary (one branch per edge: the first such edge used) or uses no edge
 * inside W at all. Each branch keeps the network form, so every bound stays integral and a branch
 * whose bound is no better than the best connected solution so far is dropped.
 *
 * The search is exponential in the worst case, so it runs under a {@link StepBudget}: a count of
 * elementary steps (residual arcs looked at, nodes walked), the same on every machine and load,
 * so that whether it finishes never depends on the clock.
 */

/** A small network for {@link longestTrail}; node ids are `0 .. size - 1`. */
export interface TrailNetwork {
  readonly size: number;
  /** Tail of each edge. */
  readonly from: ArrayLike<number>;
  /** Head of each edge. */
  readonly to: ArrayLike<number>;
  /** Most uses of each edge (a finite integer >= 0). */
  readonly cap: ArrayLike<number>;
  /** Value of ending the trail at each node; `-Infinity` where it cannot end. */
  readonly gain: ArrayLike<number>;
}

/**
 * Steps a search may still take, shared by every search that draws on it (one per graph in
 * `hop-limits.ts`). A step is one residual arc or node looked at; `left` goes down as they are
 * taken and the search stops once it falls below 0.
 */
export interface StepBudget {
  left: number;
}

/** Thrown (and caught by the caller) when the step budget is spent mid-search. */
export class TrailSearchOverBudget extends Error {
  constructor() {
    super("longest-trail search ran out of its step budget");
  }
}

/** Takes `steps` steps from `budget`. @throws TrailSearchOverBudget when it is spent. */
function spend(budget: StepBudget, steps: number): void {
  budget.left -= steps;
  if (budget.left < 0) throw new TrailSearchOverBudget();
}

/**
 * The most edges on a trail from `start` that uses each edge at most `cap` times, plus the
 * `gain` of the node it ends at; `-Infinity` when it can end nowhere.
 *
 * @param budget - steps the search may take; what it takes is subtracted, also when it fails
 * @throws TrailSearchOverBudget when the budget was spent before the answer was known
 */
export function longestTrail(network: TrailNetwork, start: number, budget: StepBudget): number {
  const flow = buildFlow(network, start);
  let incumbent = -Infinity;
  const stack: { lo: Float64Array; hi: Float64Array }[] = [{ lo: flow.lo, hi: flow.hi }];
  while (stack.length > 0) {
    // A branch copies and scans its bounds: one step per edge.
    spend(budget, flow.edges);
    const { lo, hi } = stack.pop() as { lo: Float64Array; hi: Float64Array };
    const x = optimalCirculation(flow, lo, hi, budget);
    if (x === undefined) continue;
    let value = 0;
    for (let e = 0; e < flow.edges; e++) value -= (flow.cost[e] as number) * (x[e] as number);
    if (value <= incumbent) continue;
    const piece = cutOffPiece(flow, x, start);
    if (piece === undefined) {
      incumbent = value;
      continue;
    }
    pushBranches(flow, lo, hi, piece, stack);
  }
  return incumbent;
}

/** The circulation network: `edges` arcs, the last one forced `T -> start`. */
interface Flow {
  readonly nodes: number;
  readonly edges: number;
  readonly tail: Int32Array;
  readonly head: Int32Array;
  /** Cost per unit: -1 per walk edge, -gain per exit edge, 0 on the forced edge. */
  readonly cost: Float64Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Residual arcs leaving each node: arc `2e` runs along edge e, `2e + 1` against it. */
  readonly arcOffsets: Int32Array;
  readonly arcs: Int32Array;
}

function buildFlow(network: TrailNetwork, start: number): Flow {
  const { size } = network;
  const sink = size;
  const tail: number[] = [];
  const head: number[] = [];
  const cost: number[] = [];
  const hi: number[] = [];
  for (let e = 0; e < network.from.length; e++) {
    tail.push(network.from[e] as number);
    head.push(network.to[e] as number);
    cost.push(-1);
    hi.push(network.cap[e] as number);
  }
  for (let v = 0; v < size; v++) {
    const gain = network.gain[v] as number;
    if (gain === -Infinity) continue;
    tail.push(v);
    head.push(sink);
    cost.push(-gain);
    hi.push(1);
  }
  tail.push(sink);
  head.push(start);
  cost.push(0);
  hi.push(1);
  const edges = tail.length;
  const lo = new Float64Array(edges);
  lo[edges - 1] = 1;
  const nodes = size + 1;
  const arcOffsets = new Int32Array(nodes + 1);
  const degree = (v: number): void => {
    arcOffsets[v + 1] = (arcOffsets[v + 1] as number) + 1;
  };
  for (let e = 0; e < edges; e++) {
    degree(tail[e] as number);
    degree(head[e] as number);
  }
  for (let v = 0; v < nodes; v++) arcOffsets[v + 1] = (arcOffsets[v + 1] as number) + (arcOffsets[v] as number);
  const fill = arcOffsets.slice(0, nodes);
  const arcs = new Int32Array(2 * edges);
  const place = (v: number, arc: number): void => {
    arcs[fill[v] as number] = arc;
    fill[v] = (fill[v] as number) + 1;
  };
  for (let e = 0; e < edges; e++) {
    place(tail[e] as number, 2 * e);
    place(head[e] as number, 2 * e + 1);
  }
  return {
    nodes,
    edges,
    tail: Int32Array.from(tail),
    head: Int32Array.from(head),
    cost: Float64Array.from(cost),
    lo,
    hi: Float64Array.from(hi),
    arcOffsets,
    arcs,
  };
}

/** Room left on a residual arc. */
function room(x: Float64Array, lo: Float64Array, hi: Float64Array, arc: number): number {
  const e = arc >> 1;
  return (arc & 1) === 0 ? (hi[e] as number) - (x[e] as number) : (x[e] as number) - (lo[e] as number);
}

/** Node a residual arc leads to (it leaves the other end). */
function arcHead(flow: Flow, arc: number): number {
  return (arc & 1) === 0 ? (flow.head[arc >> 1] as number) : (flow.tail[arc >> 1] as number);
}

function arcTail(flow: Flow, arc: number): number {
  return (arc & 1) === 0 ? (flow.tail[arc >> 1] as number) : (flow.head[arc >> 1] as number);
}

function push(x: Float64Array, arc: number, amount: number): void {
  const e = arc >> 1;
  x[e] = (x[e] as number) + ((arc & 1) === 0 ? amount : -amount);
}

/**
 * A least-cost circulation with `lo <= x <= hi`, or `undefined` when none exists: a feasible
 * one by augmenting paths from surplus to deficit, then negative residual cycles cancelled
 * until none is left (optimal by the negative-cycle criterion).
 */
function optimalCirculation(flow: Flow, lo: Float64Array, hi: Float64Array, budget: StepBudget): Float64Array | undefined {
  for (let e = 0; e < flow.edges; e++) if ((lo[e] as number) > (hi[e] as number)) return undefined;
  const x = lo.slice();
  const excess = new Float64Array(flow.nodes);
  for (let e = 0; e < flow.edges; e++) {
    excess[flow.head[e] as number] = (excess[flow.head[e] as number] as number) + (x[e] as number);
    excess[flow.tail[e] as number] = (excess[flow.tail[e] as number] as number) - (x[e] as number);
  }
  const pred = new Int32Array(flow.nodes);
  const queue = new Int32Array(flow.nodes);
  for (let s = 0; s < flow.nodes; s++) {
    while ((excess[s] as number) > 0) {
      // Breadth-first search for a node in deficit.
      pred.fill(-1);
      let tailIndex = 0;
      queue[tailIndex++] = s;
      let found = -1;
      for (let h = 0; h < tailIndex && found === -1; h++) {
        const v = queue[h] as number;
        spend(budget, 1 + (flow.arcOffsets[v + 1] as number) - (flow.arcOffsets[v] as number));
        for (let i = flow.arcOffsets[v] as number; i < (flow.arcOffsets[v + 1] as number); i++) {
          const arc = flow.arcs[i] as number;
          const w = arcHead(flow, arc);
          if (w === s || pred[w] !== -1 || room(x, lo, hi, arc) <= 0) continue;
          pred[w] = arc;
          if ((excess[w] as number) < 0) {
            found = w;
            break;
          }
          queue[tailIndex++] = w;
        }
      }
      if (found === -1) return undefined;
      let amount = Math.min(excess[s] as number, -(excess[found] as number));
      for (let v = found; v !== s; v = arcTail(flow, pred[v] as number)) amount = Math.min(amount, room(x, lo, hi, pred[v] as number));
      for (let v = found; v !== s; v = arcTail(flow, pred[v] as number)) push(x, pred[v] as number, amount);
      excess[s] = (excess[s] as number) - amount;
      excess[found] = (excess[found] as number) + amount;
    }
  }
  for (;;) {
    const cycle = negativeCycle(flow, x, lo, hi, budget);
    if (cycle === undefined) return x;
    let amount = Infinity;
    for (const arc of cycle) amount = Math.min(amount, room(x, lo, hi, arc));
    for (const arc of cycle) push(x, arc, amount);
  }
}

/**
 * A residual cycle of negative cost (its arcs), by Bellman-Ford from every node at once. While
 * relaxations go on past n rounds a negative cycle exists, and the predecessor graph then
 * comes to hold one, so from round n on that graph is searched for a cycle after every round.
 */
function negativeCycle(flow: Flow, x: Float64Array, lo: Float64Array, hi: Float64Array, budget: StepBudget): number[] | undefined {
  const n = flow.nodes;
  const dist = new Float64Array(n);
  const pred = new Int32Array(n).fill(-1);
  for (let round = 1; ; round++) {
    spend(budget, 2 * flow.edges);
    let changed = false;
    for (let arc = 0; arc < 2 * flow.edges; arc++) {
      if (room(x, lo, hi, arc) <= 0) continue;
      const c = (arc & 1) === 0 ? (flow.cost[arc >> 1] as number) : -(flow.cost[arc >> 1] as number);
      const v = arcTail(flow, arc);
      const w = arcHead(flow, arc);
      if ((dist[v] as number) + c < (dist[w] as number)) {
        dist[w] = (dist[v] as number) + c;
        pred[w] = arc;
        changed = true;
      }
    }
    if (!changed) return undefined;
    if (round < n) continue;
    spend(budget, n);
    const cycle = predecessorCycle(flow, pred);
    if (cycle !== undefined) return cycle;
  }
}

/** A cycle of the predecessor graph (each node points at the tail of its `pred` arc), as arcs. */
function predecessorCycle(flow: Flow, pred: Int32Array): number[] | undefined {
  const n = flow.nodes;
  const seenIn = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    let v = s;
    while (v !== -1 && seenIn[v] === -1) {
      seenIn[v] = s;
      v = pred[v] === -1 ? -1 : arcTail(flow, pred[v] as number);
    }
    if (v === -1 || seenIn[v] !== s) continue;
    const cycle: number[] = [];
    let u = v;
    do {
      const arc = pred[u] as number;
      cycle.push(arc);
      u = arcTail(flow, arc);
    } while (u !== v);
    return cycle;
  }
  return undefined;
}

/**
 * The nodes of a piece of the solution's support (forced edge left out) not connected to
 * `start`, or `undefined` when the support is one piece holding `start`.
 */
function cutOffPiece(flow: Flow, x: Float64Array, start: number): Uint8Array | undefined {
  const parent = Int32Array.from({ length: flow.nodes }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v] as number] as number;
      v = parent[v] as number;
    }
    return v;
  };
  const last = flow.edges - 1;
  for (let e = 0; e < last; e++) if ((x[e] as number) > 0) parent[find(flow.tail[e] as number)] = find(flow.head[e] as number);
  const home = find(start);
  for (let e = 0; e < last; e++) {
    if ((x[e] as number) <= 0) continue;
    const root = find(flow.tail[e] as number);
    if (root === home) continue;
    const piece = new Uint8Array(flow.nodes);
    for (let v = 0; v < flow.nodes; v++) if (find(v) === root) piece[v] = 1;
    return piece;
  }
  return undefined;
}

/** Pushes the branches of the cut around `piece` (see the module comment). */
function pushBranches(
  flow: Flow,
  lo: Float64Array,
  hi: Float64Array,
  piece: Uint8Array,
  stack: { lo: Float64Array; hi: Float64Array }[],
): void {
  const crossing: number[] = [];
  const inside: number[] = [];
  for (let e = 0; e < flow.edges - 1; e++) {
    const a = piece[flow.tail[e] as number] === 1;
    const b = piece[flow.head[e] as number] === 1;
    if (a !== b && (hi[e] as number) > 0) crossing.push(e);
    else if (a && b) inside.push(e);
  }
  // No crossing edge used: then nothing inside the piece may be used either.
  if (crossing.every((e) => lo[e] === 0) && inside.every((e) => lo[e] === 0)) {
    const h = hi.slice();
    for (const e of [...crossing, ...inside]) h[e] = 0;
    stack.push({ lo, hi: h });
  }
  // The k-th crossing edge is the first one used.
  for (let k = crossing.length - 1; k >= 0; k--) {
    if (crossing.slice(0, k).some((e) => (lo[e] as number) > 0)) continue;
    const l = lo.slice();
    const h = hi.slice();
    for (let j = 0; j < k; j++) h[crossing[j] as number] = 0;
    l[crossing[k] as number] = Math.max(1, l[crossing[k] as number] as number);
    stack.push({ lo: l, hi: h });
  }
}
