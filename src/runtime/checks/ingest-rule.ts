/**
 * What every ingest check module declares: its rule id (the `rule` of the reasons it makes), the
 * stage of the pipeline it runs in, the JSON Pointer it reports at, and its one-line description
 * (from the runtime catalogue, shared with the Python runtime). The check itself is the module's
 * other export; `index.ts` lists every module in pipeline order.
 */
import { RUNTIME_RULES, type CatalogueRule } from "../reason-catalogue.js";

/**
 * The stages of `accept()`, in order: the JSON Schema and JSON data; the envelope's own
 * semantics; the graph; the task ledger (the store's answer).
 */
export type IngestStage = "schema" | "envelope" | "graph" | "artefacts" | "ledger";

/** One ingest rule, as its module declares it. */
export interface IngestRule {
  readonly id: CatalogueRule;
  readonly stage: IngestStage;
  /** The JSON Pointer (RFC 6901) its reasons point at; `<i>` stands for an array index. */
  readonly pointer: string;
  /** One line, from the catalogue. */
  readonly description: string;
}

/** Declares a rule: its description comes from the catalogue. */
export function ingestRule(id: CatalogueRule, stage: IngestStage, pointer: string): IngestRule {
  const description = RUNTIME_RULES[id];
  if (description === undefined) throw new Error(`internal: rule ${id} is not in the catalogue`);
  return Object.freeze({ id, stage, pointer, description });
}
