/**
 * The settings of agent and edge blocks, stated once as data: the keyword, the node the parser
 * makes of it, how its value is written, whether a block may hold it more than once, and the one
 * line that explains it. The parser (which keywords start a block item, what a block's error
 * message expects), the Chevrotain grammar specification (one rule per setting), the printer,
 * binding (first value wins, `duplicate-setting` for the rest), hover and completion read this
 * table; `seam diff` states, per field of the checked model, which findings cover it
 * (`src/diff/model-coverage.ts`, held to this table by a test).
 *
 * Adding a count setting to edges is one row here plus its field in the checked model.
 */

/**
 * How a setting's value is written:
 * - `count`: a non-negative integer (`max_rounds 2`);
 * - `paths`: envelope field paths separated by commas (`require a.b, c[]`);
 * - `string`: a double-quoted string (`version "1.4.0"`);
 * - `terminal`: a name, an optional outcome and an optional string (`terminal done complete "x"`);
 * - `flag`: nothing (`gate`);
 * - `floor`: a number from 0 to 1, optionally `for` decision ids (`min_confidence 0.8 for price`);
 * - `name`: one name (`fan_out research`);
 * - `join`: what a join waits for, of which agents, how long and what then
 *   (`join 2 of a, b, c within 3600 seconds otherwise escalate`).
 */
export type SettingValue = "count" | "paths" | "string" | "terminal" | "flag" | "floor" | "name" | "join";

/** One setting of a block. */
export interface SettingSpec {
  readonly keyword: string;
  /** The `kind` of the AST node the parser makes of the line. */
  readonly node: string;
  readonly value: SettingValue;
  /** `once`: a second line is a `duplicate-setting` error (the first wins); `list`: each line adds. */
  readonly repeats: "once" | "list";
  /** One line for hover, completion and the language reference. */
  readonly summary: string;
  /** The field of the checked agent or edge (`analysis/model.ts`) that holds the setting's value. */
  readonly model: string;
  /** What an edge or agent without the line means, where hover says so (`unbounded`). */
  readonly whenAbsent?: string;
}

/** The settings of an edge block, in the order completion offers them. */
export const EDGE_SETTINGS = [
  {
    keyword: "require",
    node: "Require",
    model: "require",
    value: "paths",
    repeats: "list",
    summary: "envelope fields this edge requires, beyond its kind's contract",
  },
  {
    keyword: "max_rounds",
    node: "MaxRounds",
    model: "maxRounds",
    whenAbsent: "unbounded",
    value: "count",
    repeats: "once",
    summary: "how many times a task may take this edge",
  },
  {
    keyword: "repairs",
    node: "Repairs",
    model: "repairs",
    value: "count",
    repeats: "once",
    summary: "refusals of one hop sent back to the producer for repair before the next escalates (default 1)",
  },
  {
    keyword: "min_confidence",
    node: "MinConfidence",
    model: "minConfidence",
    value: "floor",
    repeats: "once",
    summary: "the lowest decision confidence this edge accepts (all decisions, or those named after `for`)",
  },
  {
    keyword: "gate",
    node: "Gate",
    model: "gate",
    value: "flag",
    repeats: "once",
    summary: "an approval gate: envelopes on this edge carry an approval record, and waiting_review cannot pass",
  },
  {
    keyword: "fan_out",
    node: "FanOut",
    model: "fanOut",
    value: "name",
    repeats: "once",
    summary: "makes this delegation a branch of the named fan-out: the supervisor's delegations with that name are taken together, one owner each",
  },
] as const satisfies readonly SettingSpec[];

/** The settings of an agent block, in the order completion offers them. */
export const AGENT_SETTINGS = [
  {
    keyword: "terminal",
    node: "Terminal",
    model: "terminals",
    value: "terminal",
    repeats: "list",
    summary: "a way this agent ends the task: complete, failed or escalate",
  },
  {
    keyword: "version",
    node: "AgentVersion",
    model: "version",
    value: "string",
    repeats: "once",
    summary: "the agent's version (semantic versioning), checked against the envelopes that name it",
  },
  {
    keyword: "gate",
    node: "Gate",
    model: "gate",
    value: "flag",
    repeats: "once",
    summary: "an approval gate: envelopes leaving this agent carry an approval record, and waiting_review cannot leave it",
  },
  {
    keyword: "effect",
    node: "Effect",
    model: "effect",
    value: "string",
    repeats: "once",
    summary: "what this agent does outside the graph (moves money, sends mail): a path to it should pass an approval gate",
  },
  {
    keyword: "join",
    node: "Join",
    model: "join",
    value: "join",
    repeats: "once",
    summary: "waits for all, any or k of the named agents' handoffs before the task goes on from this agent, within a deadline, otherwise escalates or ends",
  },
] as const satisfies readonly SettingSpec[];

/** An edge setting's keyword. */
export type EdgeSettingKeyword = (typeof EDGE_SETTINGS)[number]["keyword"];
/** An agent setting's keyword. */
export type AgentSettingKeyword = (typeof AGENT_SETTINGS)[number]["keyword"];
/** The keywords of the edge settings whose value is a count. */
export type CountSettingKeyword = Extract<(typeof EDGE_SETTINGS)[number], { value: "count" }>["keyword"];
/** The AST node kind of a count setting. */
export type CountSettingNode = Extract<(typeof EDGE_SETTINGS)[number], { value: "count" }>["node"];

/** The count settings of edges (`max_rounds`, `repairs`), in table order. */
export const COUNT_SETTINGS = EDGE_SETTINGS.filter(
  (s): s is Extract<(typeof EDGE_SETTINGS)[number], { value: "count" }> => s.value === "count",
);

/** Every setting by its AST node kind (edge and agent `gate` share one node kind and row text). */
const byNode: ReadonlyMap<string, SettingSpec> = new Map(
  [...AGENT_SETTINGS, ...EDGE_SETTINGS].map((s): [string, SettingSpec] => [s.node, s]),
);

/**
 * The setting an AST node kind stands for.
 *
 * @throws Error when `node` is no setting's node kind (a bug in Seam)
 */
export function settingOfNode(node: string): SettingSpec {
  const spec = byNode.get(node);
  if (spec === undefined) throw new Error(`internal: '${node}' is no setting's node`);
  return spec;
}

/** The setting of a block with keyword `word`, or undefined. */
export function settingOfKeyword(block: "edge" | "agent", word: string): SettingSpec | undefined {
  return (block === "edge" ? (EDGE_SETTINGS as readonly SettingSpec[]) : AGENT_SETTINGS).find((s) => s.keyword === word);
}
