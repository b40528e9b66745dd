// Types of bench/gen-graph.mjs, for the tests in test/bench/ (the bench itself is plain ESM JS).

/** An agent of a generated graph; `terminal` is the outcome of its one terminal, if it has one. */
export interface GeneratedAgent {
  id: string;
  role: "supervisor" | "worker" | "peer";
  terminal?: "complete" | "failed" | "escalate";
}

/** An edge between agent indices. */
export interface GeneratedEdge {
  kind: "delegate" | "return" | "transfer";
  from: number;
  to: number;
  maxRounds?: number;
  require?: string;
}

/** A generated graph; `entries` are agent indices. */
export interface GeneratedGraph {
  name: string;
  agents: GeneratedAgent[];
  edges: GeneratedEdge[];
  entries: number[];
}

export declare const DEFAULT_SEED: number;
export declare const TEAM_SIZE: number;
export declare function createRandom(seed: number): () => number;
export declare function generateGraph(options: { agents: number; seed?: number; extraPerAgent?: number }): GeneratedGraph;
export declare function toSeam(graph: GeneratedGraph): string;
export declare function toEdgeList(graph: GeneratedGraph): string;
