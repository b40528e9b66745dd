/**
 * `accept()` for a checked graph without writing or importing a module: the same
 * `createAccept` of `seam-handoff/runtime` over Ajv-compiled validators, so `seam validate` behaves
 * exactly like the emitted module.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { createAccept, type Accept, type ValidateFunction } from "../runtime/accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "./graph-data.js";
import { addGraphSchemas } from "./schema-compiler.js";

function compiled(validate: ValidateFunction | undefined, id: string): ValidateFunction {
  if (validate === undefined) throw new Error(`internal: schema ${id} was not added`);
  return validate;
}

/**
 * Compiles the graph's validators in memory and returns its `accept`.
 *
 * @param graph - a checked graph without errors
 * @throws Error on a bug in Seam (a schema that does not compile, a graph without hop limit)
 */
export function createGraphAccept(graph: CheckedGraph): Accept {
  const schemas = addGraphSchemas(graph);
  return createAccept({
    graph: toGraphInfo(graph),
    agents: toAgentInfos(graph),
    edges: toEdgeInfos(graph, schemas.edgeContracts),
    validateEnvelope: compiled(schemas.ajv.getSchema(schemas.envelopeId), schemas.envelopeId),
    contracts: schemas.contracts.map((contract) => compiled(schemas.ajv.getSchema(contract.id), contract.id)),
  });
}
