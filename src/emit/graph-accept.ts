/**
 * `accept()` and `acceptAsync()` for a checked graph without writing or importing a module: the
 * same `createAcceptors` of `seam-handoff/runtime` over Ajv-compiled validators, so
 * `seam validate` behaves exactly like the emitted module.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { createAcceptors, type Acceptors, type ValidateFunction } from "../runtime/accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "./graph-data.js";
import { addGraphSchemas } from "./schema-compiler.js";

function compiled(validate: ValidateFunction | undefined, id: string): ValidateFunction {
  if (validate === undefined) throw new Error(`internal: schema ${id} was not added`);
  return validate;
}

/**
 * Compiles the graph's validators in memory and returns its `accept` and `acceptAsync`.
 *
 * @param graph - a checked graph without errors
 * @param options - `anyReceiver`: `me` may name an agent the graph lacks (`seam validate --as '*'`)
 * @throws Error on a bug in Seam (a schema that does not compile, a graph without hop limit)
 */
export function createGraphAccept(graph: CheckedGraph, options: { readonly anyReceiver?: boolean } = {}): Acceptors {
  const schemas = addGraphSchemas(graph);
  return createAcceptors({
    graph: toGraphInfo(graph),
    agents: toAgentInfos(graph),
    edges: toEdgeInfos(graph, schemas.edgeContracts),
    validateEnvelope: compiled(schemas.ajv.getSchema(schemas.envelopeId), schemas.envelopeId),
    contracts: schemas.contracts.map((contract) => compiled(schemas.ajv.getSchema(contract.id), contract.id)),
    ...(options.anyReceiver === true ? { anyReceiver: true } : {}),
  });
}
