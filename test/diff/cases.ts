/** The edits of the finding table: each pair of texts exercises one or two finding ids. */
import { BASE, edit } from "./helpers.js";

const SECOND_GRAPH = "\ngraph side {\n  entry solo\n  agent solo: peer {\n    terminal t\n  }\n}\n";
const KINDS = "graph k {\n  entry a\n  agent a: supervisor {\n    terminal t\n  }\n  agent b: supervisor\n  delegate a -> b { max_rounds 1 }\n  return b -> a\n}\n";

/** BASE with boss fanning out to helper and lead, and waiting for both. */
const FAN = edit(
  BASE,
  ["  entry boss", "  envelope 1.4\n  entry boss"],
  ["delegate boss -> helper { max_rounds 1 }", "delegate boss -> helper { max_rounds 1 fan_out team }"],
  ["delegate boss -> lead { max_rounds 1 }", "delegate boss -> lead { max_rounds 1 fan_out team }"],
  ["    terminal done complete\n", "    terminal done complete\n    join all of helper, lead within 600 seconds\n"],
);

/** `[name, old text, new text]`. */
export const EDITS: readonly (readonly [string, string, string])[] = [
  ["graph removed / added", BASE + SECOND_GRAPH, BASE],
  ["agent removed / added", BASE, edit(BASE, ["  agent helper: worker\n", ""], ["  delegate boss -> helper { max_rounds 1 }\n  return helper -> boss\n", ""])],
  ["role changed", BASE, edit(BASE, ["agent desk_peer: peer", "agent desk_peer: worker"])],
  ["major version", BASE, edit(BASE, ['version "1.0.0"', 'version "2.0.0"'])],
  ["minor version", BASE, edit(BASE, ['version "1.0.0"', 'version "1.1.0"'])],
  ["patch version", BASE, edit(BASE, ['version "1.0.0"', 'version "1.0.1"'])],
  ["version declared / dropped", BASE, edit(BASE, ["agent lead: supervisor", 'agent lead: supervisor {\n    version "0.3.0"\n  }'])],
  ["terminal removed / added", BASE, edit(BASE, ["    terminal gave_up failed\n", ""])],
  ["terminal outcome", BASE, edit(BASE, ["terminal gave_up failed", "terminal gave_up escalate"])],
  ["entry added / removed", BASE, edit(BASE, ["entry boss", "entry boss, lead"])],
  ["edge removed / added", BASE, edit(BASE, ["  transfer analyst -> desk_peer observe\n", "  transfer helper -> desk_peer observe\n"])],
  ["edge kind", KINDS, edit(KINDS, ["delegate a -> b { max_rounds 1 }\n  return b -> a", "return a -> b\n  delegate b -> a { max_rounds 1 }"])],
  ["required field", BASE, edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 require goal.out_of_scope, open_questions[] }"])],
  ["renamed field", edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 require goal.out_of_scope }"]), edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 require safe_resume }"])],
  ["required field on an observe edge", BASE, edit(BASE, ["transfer analyst -> desk_peer observe", "transfer analyst -> desk_peer observe { require open_questions }"])],
  ["required field by contract", BASE, edit(BASE, ["  agent lead", "  contract return {\n    require status, artefacts, provenance, decisions\n  }\n  agent lead"])],
  ["max rounds", BASE, edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 1 }"])],
  ["repairs", BASE, edit(BASE, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 repairs 2 }"])],
  ["min confidence", BASE, edit(BASE, ["delegate boss -> helper { max_rounds 1 }", "delegate boss -> helper { max_rounds 1 min_confidence 0.7 }"])],
  ["gate on an agent and an edge", edit(BASE, ["  entry boss", "  envelope 1.4\n  entry boss"]), edit(BASE, ["  entry boss", "  envelope 1.4\n  entry boss"], ["agent helper: worker", "agent helper: worker { gate }"], ["delegate boss -> lead { max_rounds 1 }", "delegate boss -> lead { max_rounds 1 gate }"])],
  ["guard", edit(BASE, ["return helper -> boss", "return helper -> boss when status is ready, partial\n  transfer helper -> desk_peer otherwise"]), edit(BASE, ["return helper -> boss", "return helper -> boss when status is ready, blocked\n  transfer helper -> desk_peer otherwise"])],
  ["branch", FAN, edit(FAN, ["delegate boss -> analyst { max_rounds 2 }", "delegate boss -> analyst { max_rounds 2 fan_out team }"])],
  ["join wait", FAN, edit(FAN, ["join all of helper, lead", "join any of helper, lead"])],
  ["join policy", FAN, edit(FAN, ["within 600 seconds", "within 60 seconds otherwise escalate"])],
  ["observe", BASE, edit(BASE, ["transfer analyst -> desk_peer observe", "transfer analyst -> desk_peer"])],
  ["hop limit", BASE, edit(BASE, ["hop_limit 9", "hop_limit 8"])],
  ["on hop limit", BASE, edit(BASE, ["on_hop_limit escalate", "on_hop_limit failed"])],
  ["loop signature", BASE, edit(BASE, ["loop_signature goal.statement", "loop_signature goal.statement, decisions[].statement"])],
  ["envelope", BASE, edit(BASE, ["  entry boss", "  envelope 1.2\n  entry boss"])],
  ["envelope 1.4", BASE, edit(BASE, ["  entry boss", "  envelope 1.4\n  entry boss"])],
  ["envelope with the same fields", edit(BASE, ["  entry boss", "  envelope 1.2\n  entry boss"]), edit(BASE, ["  entry boss", "  envelope 1.1\n  entry boss"])],
];
