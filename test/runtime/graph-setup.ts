/** A graph's accept() together with its graph data, as an emitted module exports them. */
import type { CheckedGraph } from "../../src/analysis/model.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import type { Accept, AcceptAsync } from "../../src/runtime/accept.js";
import type { AgentInfo, EdgeInfo, GraphInfo } from "../../src/runtime/graph-data.js";

/** What a service imports from `G.validators.mjs`. */
export interface GraphModule {
  readonly accept: Accept;
  readonly acceptAsync: AcceptAsync;
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
}

/** Compiles `checked` in memory into the exports of its validator module. */
export function graphModule(checked: CheckedGraph): GraphModule {
  const { accept, acceptAsync } = createGraphAccept(checked);
  return {
    accept,
    acceptAsync,
    graph: toGraphInfo(checked),
    agents: toAgentInfos(checked),
    edges: toEdgeInfos(checked, addGraphSchemas(checked).edgeContracts),
  };
}
