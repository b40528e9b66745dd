/**
 * One Ajv setup for all of Seam's schemas, used both to write standalone validator modules and
 * to validate in memory (`seam validate`), so the two behave the same: JSON Schema draft
 * 2020-12, strict mode, every error collected (`allErrors`), no coercion, Seam's own messages
 * (`messages: false`), and the formats of `seam-handoff/runtime` (ajv-formats' definitions), which
 * generated code reads from an imported `$seam_formats` object instead of `require()`.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import type { CheckedGraph } from "../analysis/model.js";
import { envelopeSchemaFor, type JsonSchema } from "../core/envelope-schema.js";
import { formats } from "../runtime/schema-helpers.js";
import { contractOverlaySchema, graphSchemaBase } from "./edge-schemas.js";

const { default: Ajv2020, _ } = Ajv2020Module;

/** An Ajv 2020 instance. */
export type SchemaAjv = InstanceType<typeof Ajv2020>;

/** The name generated code uses for `seam-handoff/runtime`'s `formats`. */
export const FORMATS_NAME = "$seam_formats";

/** Creates the Ajv instance described above (with `code.source`, so it can also emit modules). */
export function createSchemaAjv(): SchemaAjv {
  return new Ajv2020({
    allErrors: true,
    strict: true,
    // Contract overlays state no types (the envelope's $ref checks them), so that no fault is
    // reported twice; the envelope schemas' own types are held to strictTypes by a test.
    strictTypes: false,
    messages: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    formats,
    // The envelope is validated by one function that every contract calls, never copied into each.
    inlineRefs: false,
    code: { source: true, esm: true, lines: true, formats: _`${new Ajv2020Module.Name(FORMATS_NAME)}` },
  });
}

/** One contract: a distinct required-field set and its overlay schema (see `contractOverlaySchema`). */
export interface CompiledContract {
  readonly id: string;
  readonly require: readonly string[];
  readonly schema: JsonSchema;
}

/** A graph's schemas added to one Ajv instance. */
export interface GraphSchemas {
  readonly ajv: SchemaAjv;
  /** `$id` of the envelope schema. */
  readonly envelopeId: string;
  /** Distinct contracts, numbered by the first edge (in edge order) that uses each. */
  readonly contracts: readonly CompiledContract[];
  /** Index into `contracts` of each edge, indexed like `graph.edges`. */
  readonly edgeContracts: readonly number[];
}

/**
 * Adds the envelope schema and one schema per distinct contract of `graph` to a new Ajv
 * instance (compiled lazily by `getSchema` or by standalone code generation).
 *
 * @param graph - a checked graph without errors
 * @throws Error when a schema does not compile (a bug in Seam, never bad user input)
 */
export function addGraphSchemas(graph: CheckedGraph): GraphSchemas {
  const ajv = createSchemaAjv();
  const envelope = envelopeSchemaFor(graph.envelope);
  ajv.addSchema(envelope as object);
  const contracts: CompiledContract[] = [];
  const byKey = new Map<string, number>();
  const edgeContracts = graph.edges.map((edge) => {
    const key = JSON.stringify(edge.require);
    let index = byKey.get(key);
    if (index === undefined) {
      index = contracts.length;
      byKey.set(key, index);
      const id = `${graphSchemaBase(graph.name)}contract-${index + 1}`;
      const schema = contractOverlaySchema(graph, edge.require, id);
      ajv.addSchema(schema as object);
      contracts.push({ id, require: edge.require, schema });
    }
    return index;
  });
  return { ajv, envelopeId: envelope["$id"] as string, contracts, edgeContracts };
}
