/**
 * The standalone ES module of validators for one graph, and its `.d.mts` (TypeScript finds the
 * declarations of an `.mjs` module only in a `.d.mts` beside it).
 *
 * The schemas are compiled here, at build time, by Ajv's standalone code generation
 * (`ajv/dist/standalone`, ESM), so loading the module compiles nothing. Ajv 8's ESM output still
 * calls `require("ajv/dist/runtime/...")` for its helpers; those calls are rewritten to names
 * imported from `seam-handoff/runtime` (formats come in the same way, through Ajv's `code.formats`), and
 * any `require(` left over fails the emission, so the module loads in plain Node ESM and in
 * bundlers alike.
 */
import standaloneModule from "ajv/dist/standalone/index.js";
import type { CheckedGraph } from "../analysis/model.js";
import { identifier, joinCode, js, quoteString, trustedCode, type Code } from "./code.js";
import { envelopeSchemaFor } from "../core/envelope-schema.js";
import { dataCheckSource } from "./data-check-code.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "./graph-data.js";
import { addGraphSchemas, FORMATS_NAME } from "./schema-compiler.js";
import { contractValidatorNames, edgeValidatorName } from "./validator-names.js";

const standaloneCode = standaloneModule.default;

/** The module specifier generated code imports its runtime from (the package self-reference). */
export const RUNTIME_SPECIFIER = "seam-handoff/runtime";

/** The Ajv runtime helpers generated code may `require`, and the `seam-handoff/runtime` export for each. */
const AJV_HELPERS: ReadonlyMap<string, string> = new Map([
  ["ajv/dist/runtime/ucs2length", "ucs2length"],
  ["ajv/dist/runtime/equal", "equal"],
]);

/** The text of a validator module and its declarations. */
export interface ValidatorModule {
  /** ES module source (`.mjs`). */
  readonly module: string;
  /** TypeScript declarations (`.d.mts`) for it. */
  readonly declarations: string;
}

/**
 * Makes Ajv's standalone output importable: drops its `"use strict"` prologue (modules are
 * strict), replaces each `require("<helper>").default` by an imported name, and refuses any
 * other `require`.
 *
 * @returns the code and the `seam-handoff/runtime` exports it uses
 * @throws Error when a `require(` would survive (an Ajv helper Seam does not provide: a bug)
 */
export function rewriteAjvRequires(source: string): { code: string; imports: string[] } {
  const used = new Set<string>();
  let code = source.replace(/^"use strict";/, "");
  code = code.replace(/require\("([^"]+)"\)\.default/g, (call, specifier: string) => {
    const name = AJV_HELPERS.get(specifier);
    if (name === undefined) return call;
    used.add(name);
    return `$seam_${name}`;
  });
  const left = /\brequire\s*\(\s*("[^"]*"|'[^']*')?/.exec(code);
  if (left !== null) {
    throw new Error(`internal: generated validators still call require(${left[1] ?? ""}): seam-handoff/runtime lacks that helper`);
  }
  if (code.includes(FORMATS_NAME)) used.add("formats");
  return { code, imports: [...used].sort() };
}

function runtimeImport(names: readonly string[]): Code {
  const specifiers = names.map((name) => js`${identifier(name)} as ${identifier(`$seam_${name}`)}`);
  return js`import { ${joinCode(specifiers, ", ")} } from ${RUNTIME_SPECIFIER};\n`;
}

/**
 * Emits the validator module of one graph. Exports: `graph`, `hopLimit`, `agents`, `edges` (the
 * graph as data), `accept`, `acceptAsync`, `finish`, `finishAsync`, `joinState`, `joinStateAsync`, `loopSignature`, `createLoopDetector()` (a loop detector over this
 * graph's signature), `createMemorySeenStore` (re-exported), `validateEnvelope` and
 * `validate_<kind>__<from>__<to>` for each edge (its raw Ajv validator, named by
 * `validator-names.ts` as the Python module's are, so adding or removing an edge or a `require`
 * never renames another edge's validator; edges with the same contract share one function).
 *
 * Deterministic: the same graph gives the same text.
 *
 * @param graph - a checked graph without errors
 * @throws Error on a bug in Seam (see {@link rewriteAjvRequires}, `toGraphInfo`)
 */
export function emitValidatorModule(graph: CheckedGraph): ValidatorModule {
  const schemas = addGraphSchemas(graph);
  const exportNames: Record<string, string> = { validateEnvelope: schemas.envelopeId };
  const contractNames = contractValidatorNames(graph.edges, schemas.edgeContracts);
  schemas.contracts.forEach((contract, i) => (exportNames[contractNames[i] as string] = contract.id));
  // Every other edge of a shared contract exports its own name for the same validator.
  const aliases = graph.edges
    .map((edge, e) => [edgeValidatorName(edge), contractNames[schemas.edgeContracts[e] as number] as string] as const)
    .filter(([name, contract]) => name !== contract);
  const ajvCode = rewriteAjvRequires(standaloneCode(schemas.ajv, exportNames));
  const graphInfo = toGraphInfo(graph);
  const agents = toAgentInfos(graph);
  const edges = toEdgeInfos(graph, schemas.edgeContracts);
  const runtime = ["createAcceptors", "createEnvelopeBuilder", "createLoopDetector", "createLoopSignature", "inheritsEnumerable", ...ajvCode.imports].sort();

  const module = js`// Generated by seam compile from graph ${graph.name}. Do not edit: change the .seam file and recompile.
${runtimeImport(runtime)}export { createMemorySeenStore } from ${RUNTIME_SPECIFIER};

// Ajv standalone validators (JSON Schema draft 2020-12), one per distinct contract, exported
// under the name of each edge that uses it.
${trustedCode(ajvCode.code.trim())}
${joinCode(
    aliases.map(([name, contract]) => js`export const ${identifier(name)} = ${identifier(contract)};\n`),
    "",
  )}
// The envelope is JSON data: its objects inherit nothing, its free text is Unicode (after the schema passed).
${trustedCode(dataCheckSource(envelopeSchemaFor(graph.envelope), "$seam_isJsonData"))}

/** The graph's settings. */
export const graph = ${graphInfo};

/** The value producers put in hop.limit. */
export const hopLimit = ${graphInfo.hopLimit};

/** The agents, in declaration order. */
export const agents = ${agents};

/** The edges, in declaration order; \`contract\` indexes the distinct contracts' validators from 0. */
export const edges = ${edges};

const $seam_acceptors = $seam_createAcceptors({
  graph,
  agents,
  edges,
  validateEnvelope,
  contracts: [${joinCode(contractNames.map(identifier), ", ")}],
  isJsonData: $seam_isJsonData,
});

/** The ingest check: accept(envelope, { me, canRead?, seen?, now? }); never throws on bad input. */
export const accept = $seam_acceptors.accept;

/** The same check with an asynchronous canRead and store: acceptAsync(envelope, { me, canRead?, seen?, now? }). */
export const acceptAsync = $seam_acceptors.acceptAsync;

/** Records a terminal action, after which the task takes no handoff: finish(taskId, { me, terminal, outcome, seen, now? }). */
export const finish = $seam_acceptors.finish;

/** The same over an asynchronous store: finishAsync(taskId, { me, terminal, outcome, seen, now? }). */
export const finishAsync = $seam_acceptors.finishAsync;

/** A task's join (waiting, fired, expired, failed), acting on its policy once: joinState(taskId, { seen, now? }). */
export const joinState = $seam_acceptors.joinState;

/** The same over an asynchronous store: joinStateAsync(taskId, { seen, now? }). */
export const joinStateAsync = $seam_acceptors.joinStateAsync;

const $seam_builder = $seam_createEnvelopeBuilder({ graph, agents, edges });

/** The first envelope of a new task, from an entry agent: firstEnvelope({ me, to, taskId, goal, budget, action, ... }). */
export const firstEnvelope = $seam_builder.first;

/** The envelope that hands a received task on: nextEnvelope(received, { me, to, action, ... }). */
export const nextEnvelope = $seam_builder.next;

/** The envelope a join agent hands the task on with once its join fired: joinEnvelope(arrivals, { me, to, action, parent?, ... }). */
export const joinEnvelope = $seam_builder.join;

/** "sha256:<hex>" over the canonical JSON of the fields graph.loopSignature names. */
export const loopSignature = $seam_createLoopSignature(graph.loopSignature);

/** A loop detector (per task, the signatures each receiving agent has seen) for this graph. */
export function createLoopDetector() {
  return $seam_createLoopDetector(loopSignature);
}
`;

  const union = (ids: readonly string[]): string => (ids.length > 0 ? ids.map(quoteString).join(" | ") : "never");
  const agentIds = union(agents.map((agent) => agent.id));
  const entryIds = union(graphInfo.entries);
  const successors = agents.map((agent) => {
    const targets = [...new Set(edges.filter((edge) => edge.from === agent.id).map((edge) => edge.to))];
    return `  readonly ${quoteString(agent.id)}: ${union(targets)};\n`;
  });
  const declarations = js`// Generated by seam compile from graph ${graph.name}. Do not edit.
import type {
  AcceptAsyncOptions,
  AcceptOptions,
  AcceptResult,
  AgentInfo,
  EdgeInfo,
  Envelope,
  FinishAsyncOptions,
  FinishOptions,
  FinishVerdict,
  FirstHandoff,
  GraphInfo,
  JoinHandoff,
  JoinReport,
  JoinStateAsyncOptions,
  JoinStateOptions,
  LoopDetector,
  NextHandoff,
  ValidateFunction,
} from ${RUNTIME_SPECIFIER};
export { createMemorySeenStore } from ${RUNTIME_SPECIFIER};
export type { AcceptResult, Envelope } from ${RUNTIME_SPECIFIER};

/** The ids of the graph's agents. */
export type AgentId = ${trustedCode(agentIds)};

/** The entry agents: where a task starts. */
export type EntryId = ${trustedCode(entryIds)};

/** For each agent, the agents it may hand a task to (the graph's edges). */
export interface Successors {
${trustedCode(successors.join(""))}}

export declare const validateEnvelope: ValidateFunction;
${joinCode(
    graph.edges.map((edge) => js`export declare const ${identifier(edgeValidatorName(edge))}: ValidateFunction;\n`),
    "",
  )}
/** The graph's settings. */
export declare const graph: GraphInfo;
/** The value producers put in hop.limit. */
export declare const hopLimit: ${graphInfo.hopLimit};
/** The agents, in declaration order. */
export declare const agents: readonly AgentInfo[];
/** The edges, in declaration order. */
export declare const edges: readonly EdgeInfo[];

/**
 * The ingest check: schema first (every error), then the semantic and graph checks.
 * Never throws on bad input; throws only what options.seen throws.
 */
export declare function accept(envelope: unknown, options: AcceptOptions & { readonly me: AgentId }): AcceptResult;
/**
 * The same check with an asynchronous canRead and store (one claim round trip per delivery).
 * Rejects with what canRead or options.seen.claim reject with.
 */
export declare function acceptAsync(envelope: unknown, options: AcceptAsyncOptions & { readonly me: AgentId }): Promise<AcceptResult>;
/**
 * Records that agent me ended task taskId at one of its terminals; afterwards accept() refuses
 * every handoff of the task (task-finished).
 * @throws TypeError for a terminal me does not declare, another outcome, or a store without finish
 */
export declare function finish(taskId: string, options: FinishOptions & { readonly me: AgentId }): FinishVerdict;
/** finish over an asynchronous store. */
export declare function finishAsync(taskId: string, options: FinishAsyncOptions & { readonly me: AgentId }): Promise<FinishVerdict>;
/**
 * The task's join: waiting, fired, expired or failed (its deadline passed, or too few branches can
 * still arrive), acting on its otherwise policy once (acts: true for that one answer).
 * @throws TypeError for a store without joinState
 */
export declare function joinState(taskId: string, options: JoinStateOptions): JoinReport;
/** joinState over an asynchronous store. */
export declare function joinStateAsync(taskId: string, options: JoinStateAsyncOptions): Promise<JoinReport>;
/**
 * The first envelope of a new task, from an entry agent to one of its successors: hop 1, a fresh
 * handoff_id, roles, versions, hop.limit and path from the graph.
 * @throws TypeError for an agent or edge the graph lacks, an unknown option, or one of the wrong
 *   type (me, to, action or taskId not a string, goal or budget not an object, provenanceStatus,
 *   note, status or handoffId given but not a string, now given but not a function)
 */
export declare function firstEnvelope<M extends EntryId>(handoff: FirstHandoff<M, Successors[M]>): Envelope;
/**
 * The envelope that hands a received task on to one of the agent's successors: the same task_id,
 * a fresh handoff_id, hop.index + 1, the path extended, this agent's provenance entry appended.
 * @throws TypeError when received is not addressed to me, for an unknown option, or one of the
 *   wrong type (me, to or action not a string, goal or budget given but not an object,
 *   provenanceStatus, note, status or handoffId given but not a string, now given but not a
 *   function); RangeError at the hop limit
 */
export declare function nextEnvelope<M extends AgentId>(received: Envelope, handoff: NextHandoff<M, Successors[M]>): Envelope;
/**
 * The envelope a join agent hands the task on with once its join fired: the hop after the longest
 * arrival, along its path, out of every branch, with the arrivals' decisions, artefacts and spend.
 * @throws TypeError when an arrival is not addressed to me or carries no hop.branch or budget, two
 *   come from one branch, for an unknown
 *   option, or one of the wrong type (me, to or action not a string, parent, goal or budget given
 *   but not an object, provenanceStatus, note, status or handoffId given but not a string, now
 *   given but not a function); RangeError at the hop limit
 */
export declare function joinEnvelope<M extends AgentId>(arrivals: readonly Envelope[], handoff: JoinHandoff<M, Successors[M]>): Envelope;
/** "sha256:<hex>" over the canonical JSON of the fields graph.loopSignature names. */
export declare function loopSignature(envelope: unknown): string;
/** A loop detector over this graph's loopSignature. */
export declare function createLoopDetector(): LoopDetector;
`;
  return { module: module.code, declarations: declarations.code };
}
