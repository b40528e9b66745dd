import { readFileSync } from "node:fs";
import { lines, ruleTable } from "./rule-table.js";

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/fan-out/${name}.seam`, import.meta.url), "utf8");

/** Marks the first occurrence of `part` in `code` as the expected range. */
function mark(code: string, part: string, from = 0): string {
  const at = code.indexOf(part, from);
  if (at < 0) throw new Error(`'${part}' is not in the source`);
  return `${code.slice(0, at)}«${part}»${code.slice(at + part.length)}`;
}

// Three researchers at once, all returning to the lead, which waits for them.
const parallel = (join: string, ...extra: string[]): string =>
  lines(
    "graph g {",
    "  entry lead",
    "  agent lead: supervisor {",
    `    ${join}`,
    "    terminal done",
    "  }",
    "  agent a: worker",
    "  agent b: worker",
    "  agent c: worker",
    "  delegate lead -> a {",
    "    fan_out research",
    "    max_rounds 1",
    "  }",
    "  delegate lead -> b {",
    "    fan_out research",
    "    max_rounds 1",
    "  }",
    "  delegate lead -> c {",
    "    fan_out research",
    "    max_rounds 1",
    "  }",
    "  return a -> lead",
    "  return b -> lead",
    "  return c -> lead",
    ...extra,
    "}",
  );

const DIAMOND = fixture("diamond-join");
const SUCCESSOR = fixture("join-own-successor");
const ASK_ALL = fixture("router-pays-for-all");

ruleTable("join-never-fires", {
  valid: [
    { name: "an all-join of three branches of one fan-out", code: parallel("join all of a, b, c") },
    { name: "a 2 of 3 join of branches", code: parallel("join 2 of a, b, c within 600 seconds otherwise escalate") },
    { name: "an any-join of a router's alternatives", code: DIAMOND.replace("join all of billing, tech", "join any of billing, tech") },
  ],
  invalid: [
    {
      name: "the diamond: a router's alternatives joined with all (langgraphjs#2666)",
      code: mark(DIAMOND, "join all of billing, tech"),
      errors: [
        {
          message:
            "the join of 'summary' waits for all of 'billing' and 'tech', but at most 1 can arrive for one task: 'triage' sends each task one way " +
            "(transfer triage -> billing or transfer triage -> tech), so the join never fires; make them branches of one fan-out (`fan_out` on the delegations that start them), or wait for any",
        },
      ],
    },
    {
      name: "3 of 3 where two inputs sit on one branch",
      code: mark(
        parallel("join 3 of a, b, d", "  agent d: worker", "  delegate a -> d { max_rounds 1 }", "  return d -> a", "  return d -> lead").replace(
          "agent a: worker",
          "agent a: supervisor",
        ),
        "join 3 of a, b, d",
      ),
      errors: [
        {
          message:
            "the join of 'lead' waits for 3 of 'a', 'b' and 'd', but at most 2 can arrive for one task: no fan-out runs 'a' and 'd' on different branches, " +
            "so the join never fires; make them branches of one fan-out (`fan_out` on the delegations that start them), or wait for any",
        },
      ],
    },
  ],
});

ruleTable("join-deadlock", {
  valid: [
    { name: "the supervisor joins the branches it fanned out", code: parallel("join all of a, b, c") },
    { name: "the diamond has no successor among its inputs", code: DIAMOND },
  ],
  invalid: [
    {
      name: "a join on its own successor (autogen#6643)",
      code: mark(SUCCESSOR, "editor", SUCCESSOR.indexOf("join all")),
      errors: [
        {
          message:
            "the join of 'reviewer' waits for 'editor', which runs only after 'reviewer' hands the task on (reviewer -> editor): " +
            "the join waits on its own successor and never fires; take 'editor' out of the join, or start it before the join as a branch of a fan-out",
        },
      ],
    },
  ],
});

ruleTable("branch-dangling", {
  valid: [
    { name: "every branch returns", code: parallel("join all of a, b, c") },
    {
      name: "a branch that ends at a terminal of its own",
      code: parallel("join any of a, b", "  agent archive: worker { terminal filed }", "  delegate c -> archive").replace("  return c -> lead\n", ""),
    },
  ],
  invalid: [
    {
      name: "a branch that hands off into a worker with no way on",
      code: mark(
        parallel("join any of a, b", "  agent sink: worker", "  agent sink2: worker", "  delegate c -> sink", "  transfer sink -> sink2").replace("  return c -> lead\n", "").replace("agent c: worker", "agent c: supervisor"),
        "delegate lead -> c",
      ),
      errors: [
        {
          message:
            "branch delegate lead -> c of fan-out 'research' reaches neither 'lead', a join that waits for it, nor a terminal: " +
            "what it does is lost; add a return to 'lead', an edge into a join that lists it, or a terminal",
        },
      ],
    },
  ],
});

ruleTable("fan-out-unjoined", {
  valid: [
    { name: "a join waits for the branches", code: parallel("join all of a, b, c") },
    { name: "a router's alternatives are no fan-out", code: DIAMOND.replace("join all of billing, tech", "join any of billing, tech") },
  ],
  invalid: [
    {
      name: "a router asks all and passes on the first answer (swarms#2135)",
      code: mark(ASK_ALL, "fan_out ask"),
      errors: [
        {
          severity: "warning",
          message:
            "fan-out 'ask' of 'router' hands each task to 'fast', 'careful' and 'cheap' at once, and results come back to 'router', but no join waits for them: " +
            "the first to come back moves the task on and the others' work is lost; add `join all of fast, careful, cheap` to 'router'",
        },
      ],
    },
  ],
});

ruleTable("fan-out-invalid", {
  valid: [{ name: "three delegations of one fan-out", code: parallel("join all of a, b, c") }],
  invalid: [
    {
      name: "fan_out on a return, and the fan-out left with one branch",
      code: mark(
        mark(
          lines(
            "graph g {",
            "  entry lead",
            "  agent lead: supervisor { terminal done }",
            "  agent a: worker",
            "  delegate lead -> a {",
            "    fan_out solo",
            "    max_rounds 1",
            "  }",
            "  return a -> lead { fan_out back }",
            "}",
          ),
          "fan_out solo",
        ),
        "fan_out back",
      ),
      errors: [
        {
          message:
            "fan-out 'solo' of 'lead' has one branch (delegate lead -> a): a fan-out hands one task to several agents at once; give another delegation of 'lead' `fan_out solo`, or remove the line",
        },
        { message: "fan_out back on return a -> lead: only delegations can be branches of a fan-out; move it to a delegate edge of 'a' or remove it" },
      ],
    },
  ],
});

ruleTable("join-invalid", {
  valid: [{ name: "a well-formed join", code: parallel("join 2 of a, b, c within 60 seconds otherwise escalate") }],
  invalid: [
    {
      name: "a count above n, a 0-second deadline, an unknown terminal, a repeated input, an input with no edge",
      code: parallel("join «5» of a, b, «a», c, «lead» within «0» seconds otherwise «gone»"),
      errors: [
        { message: "the join of 'lead' waits for 5 of 4 inputs: write a count from 1 to 4, or 'all' or 'any'" },
        { message: "'a' is listed twice in the join of 'lead': list each input once" },
        {
          message:
            "'lead' is an input of the join of 'lead' but has no edge to 'lead': add one (a return or transfer lead -> lead) or take it out of the join",
        },
        { message: "the join of 'lead' waits 0 seconds: write a deadline of at least 1 second, or leave 'within' out" },
        {
          message:
            "the join of 'lead' ends the task at 'gone' otherwise, but 'lead' declares no terminal 'gone': add `terminal gone failed` to 'lead', or write 'otherwise escalate'",
        },
      ],
    },
  ],
});

ruleTable("unknown-agent", {
  valid: [{ name: "every join input is declared", code: parallel("join all of a, b, c") }],
  invalid: [
    {
      name: "a join input that names no agent",
      code: parallel("join all of a, b, «cc»"),
      errors: [{ message: "unknown agent 'cc' in the join of 'lead': did you mean 'c'?" }],
    },
  ],
});

ruleTable("duplicate-setting", {
  valid: [{ name: "one join per agent, one fan_out per edge", code: parallel("join all of a, b, c") }],
  invalid: [
    {
      name: "a second join line and a second fan_out line",
      code: parallel("join all of a, b, c\n    «join any of a, b»").replace("    fan_out research\n    max_rounds 1\n  }\n  delegate lead -> b", "    fan_out research\n    «fan_out other»\n    max_rounds 1\n  }\n  delegate lead -> b"),
      errors: [
        { message: "join is set twice in agent 'lead': keep one line (the first is the one used)." },
        { message: "fan_out is set twice in delegate lead -> a: keep one line (the first is the one used)." },
      ],
    },
  ],
});

const NEEDS_BRANCH =
  "fan-out 'research' of 'lead' needs envelope 1.4, whose hop.branch names the branch each handoff travels in: this graph targets envelope 1.3, " +
  "where ingest checks each branch as a plain delegation of the same hop (the second is refused as a second owner); write `envelope 1.4`";

ruleTable("fan-out-needs-branch-envelope", {
  valid: [
    { name: "a fan-out in a graph of envelope 1.4", code: parallel("join all of a, b, c").replace("graph g {", "graph g {\n  envelope 1.4") },
    { name: "no fan-out in a graph of envelope 1.3", code: lines("graph g {", "  envelope 1.3", "  entry lead", "  agent lead: supervisor { terminal done }", "  agent a: worker", "  delegate lead -> a { max_rounds 1 }", "  return a -> lead", "}") },
    {
      name: "fan_out on a return edge (fan-out-invalid's finding, not this one's)",
      code: lines("graph g {", "  entry lead", "  agent lead: supervisor { terminal done }", "  agent a: worker", "  delegate lead -> a { max_rounds 1 }", "  return a -> lead { fan_out back }", "}"),
    },
  ],
  invalid: [
    {
      name: "each fan_out line of a graph with no envelope line (1.3)",
      code: parallel("join all of a, b, c").replaceAll("    fan_out research\n", "    «fan_out research»\n"),
      errors: [{ message: NEEDS_BRANCH }, { message: NEEDS_BRANCH }, { message: NEEDS_BRANCH }],
    },
    {
      name: "a fan-out in a graph of envelope 1.2",
      code: parallel("join any of a, b, c").replace("graph g {", "graph g {\n  envelope 1.2").replaceAll("    fan_out research\n", "    «fan_out research»\n"),
      errors: [{ message: NEEDS_BRANCH.replace("envelope 1.3", "envelope 1.2") }, { message: NEEDS_BRANCH.replace("envelope 1.3", "envelope 1.2") }, { message: NEEDS_BRANCH.replace("envelope 1.3", "envelope 1.2") }],
    },
  ],
});

// The lead fans research out to a screener and a media researcher; the screener is a supervisor
// of its own, working on two lists.
const screening = (screenerWork?: string): string =>
  lines(
    "graph g {",
    "  envelope 1.4",
    "  entry lead",
    "  agent lead: supervisor {",
    "    join all of screener, media within 600 seconds otherwise escalate",
    "    terminal done",
    "  }",
    "  agent screener: supervisor",
    "  agent media: worker",
    "  agent list_a: worker",
    "  agent list_b: worker",
    "  delegate lead -> screener {",
    "    fan_out research",
    "    max_rounds 1",
    "  }",
    "  delegate lead -> media {",
    "    fan_out research",
    "    max_rounds 1",
    "  }",
    "  return screener -> lead",
    "  return media -> lead",
    "  delegate screener -> list_a {",
    ...(screenerWork === undefined ? [] : [`    ${screenerWork}`]),
    "    max_rounds 1",
    "  }",
    "  delegate screener -> list_b {",
    ...(screenerWork === undefined ? [] : [`    ${screenerWork}`]),
    "    max_rounds 1",
    "  }",
    "  return list_a -> screener",
    "  return list_b -> screener",
    "}",
  );

ruleTable("fan-out-nested", {
  valid: [
    { name: "plain delegations inside a branch", code: screening() },
    { name: "a fan-out without another around it", code: parallel("join all of a, b, c").replace("graph g {", "graph g {\n  envelope 1.4") },
    {
      name: "a second fan-out from the supervisor once the first is joined",
      code: parallel(
        "join all of a, b, c",
        "  agent d: worker",
        "  agent e: worker",
        "  delegate lead -> d {",
        "    fan_out review",
        "    max_rounds 1",
        "  }",
        "  delegate lead -> e {",
        "    fan_out review",
        "    max_rounds 1",
        "  }",
        "  return d -> lead",
        "  return e -> lead",
      ).replace("graph g {", "graph g {\n  envelope 1.4"),
    },
  ],
  invalid: [
    {
      name: "a supervisor inside a branch fans out again",
      code: mark(screening("fan_out lists"), "fan_out lists"),
      errors: [
        {
          severity: "error",
          message:
            "fan-out 'lists' of 'screener' starts inside branch 'research/screener' of fan-out 'research' of 'lead': the ledger follows one fan-out of a task at a time, " +
            "so ingest would refuse these delegations while 'research' is open; make them plain delegations, or fan out from 'lead' once 'research' is done",
        },
      ],
    },
  ],
});
